import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { ConfigError, DEFAULTS, loadConfig } from '../../framework/config/InstanceConfig';

describe('instance config', function () {
  let dir: string;
  let file: string;
  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-config-'));
    file = path.join(dir, 'tzidx.yaml');
    fs.writeFileSync(file, 'port: 9001\ndata_dir: /from/file\nplugins: [core-chain]\nhost: 0.0.0.0\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('defaults apply when nothing is given', function () {
    const c = loadConfig({ env: {} });
    expect(c.port).to.equal(8000);
    expect(c.dataDir).to.equal('./data');
    expect(c.databaseUrl).to.equal(undefined);
    expect(c.plugins).to.equal(undefined);
  });

  it('flags > environment > file > defaults', function () {
    const fileOnly = loadConfig({ file, env: {} });
    expect([fileOnly.port, fileOnly.dataDir, fileOnly.host]).to.deep.equal([9001, '/from/file', '0.0.0.0']);
    const env = { TZIDX_PORT: '9002', TZIDX_PLUGINS: 'governance, bigmaps', DATABASE_URL: 'postgres://x/y' };
    const withEnv = loadConfig({ file, env });
    expect([withEnv.port, withEnv.dataDir, withEnv.databaseUrl]).to.deep.equal([9002, '/from/file', 'postgres://x/y']);
    expect(withEnv.plugins).to.deep.equal(['governance', 'bigmaps']);
    const withFlags = loadConfig({ file, env, flags: { port: 9003, dataDir: undefined } });
    expect([withFlags.port, withFlags.dataDir]).to.deep.equal([9003, '/from/file']);
    expect(withFlags.statementTimeoutMs).to.equal(DEFAULTS.statementTimeoutMs);
  });

  it('TZIDX_CONFIG names the file', function () {
    expect(loadConfig({ env: { TZIDX_CONFIG: file } }).port).to.equal(9001);
  });

  it('rejects unknown keys, wrong types, bad ports and unreadable files clearly', function () {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'prot: 1\n');
    expect(() => loadConfig({ file: bad, env: {} })).to.throw(ConfigError, /unknown key 'prot'/);
    fs.writeFileSync(bad, 'port: eighty\n');
    expect(() => loadConfig({ file: bad, env: {} })).to.throw(ConfigError, /\/port/);
    expect(() => loadConfig({ env: { TZIDX_PORT: '70000' } })).to.throw(ConfigError, /invalid port/);
    fs.writeFileSync(bad, 'batch_blocks: 0\n');
    expect(() => loadConfig({ file: bad, env: {} })).to.throw(ConfigError, /\/batch_blocks/);
    fs.writeFileSync(bad, 'batch_blocks: 25\n');
    expect(loadConfig({ file: bad, env: {} }).batchBlocks).to.equal(25);
    fs.writeFileSync(bad, 'batch_operations: -5\n');
    expect(() => loadConfig({ file: bad, env: {} })).to.throw(ConfigError, /\/batch_operations/);
    fs.writeFileSync(bad, 'batch_operations: 5000\n');
    expect(loadConfig({ file: bad, env: {} }).batchOperations).to.equal(5000);
    expect(() => loadConfig({ file: path.join(dir, 'missing.yaml'), env: {} })).to.throw(
      ConfigError,
      /cannot read config file/,
    );
  });
});
