import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TzidxApp } from '../../framework/app/TzidxApp';
import { DEFAULTS } from '../../framework/config/InstanceConfig';
import { silentLogger } from '../../framework/util/Logger';
import { PLUGINS } from './support';

const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');

function tzidx(args: string[]): { code: number | null; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', TZIDX_PLUGINS: 'core-chain,metadata' },
    timeout: 120_000,
  });
  return { code: r.status, err: r.stderr };
}

describe('metadata: tzidx metadata import FILE', () => {
  it('imports a valid file, refuses an invalid one with the JSON path, and the entries stay', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-md-cli-'));
    try {
      const good = path.join(dir, 'good.json');
      const entries = [
        { address: 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq', alias: { name: 'Imported', kind: 'exchange' } },
      ];
      fs.writeFileSync(good, JSON.stringify(entries));
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(
        bad,
        JSON.stringify([{ address: 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq', alias: { name: 'No kind' } }]),
      );
      const data = path.join(dir, 'data');
      const ok = tzidx(['metadata', 'import', good, '--data-dir', data, '--log-level', 'silent']);
      expect(ok.code, ok.err).to.equal(0);
      const refused = tzidx(['metadata', 'import', bad, '--data-dir', data, '--log-level', 'silent']);
      expect(refused.code).to.equal(2);
      expect(refused.err).to.contain('/0/alias/kind is required');
      expect(tzidx(['metadata', 'nonsense', '--data-dir', data]).code).to.equal(2);

      const app = await TzidxApp.create(
        { ...DEFAULTS, dataDir: data, metadata: { resolver: { enabled: false } } },
        { log: silentLogger, available: PLUGINS },
      );
      try {
        const { url } = await app.api.listen(0, '127.0.0.1');
        expect(await (await fetch(`${url}/metadata`)).json()).to.deep.equal(entries);
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
