import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TzidxApp } from '../../framework/app/TzidxApp';
import type { NormalizedBlock, NormalizedOperation } from '../../framework/chain';
import { DEFAULTS, InstanceConfig } from '../../framework/config/InstanceConfig';
import { PluginClass } from '../../framework/plugins/Plugin';
import { SandboxChain } from '../../framework/sandbox';
import { silentLogger } from '../../framework/util/Logger';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { BACKEND, createTestDatabase } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';
import { manualWatch, REGISTRY_ENTRYPOINTS, WatcherPlugin } from './plugins/watcher/plugin';

const plugins = [WatcherPlugin as unknown as PluginClass];
const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Operations of groups whose every content applied (patterns skip the others). */
function appliedGroupOps(b: NormalizedBlock): NormalizedOperation[] {
  const failed = new Set(b.operations.filter((o) => o.status !== 'applied').map((o) => `${o.opL}/${o.opP}`));
  return b.operations.filter((o) => o.hash !== '' && !failed.has(`${o.opL}/${o.opP}`));
}

/** Oracle: registries are originations whose raw script declares every registry entrypoint. */
function registries(blocks: NormalizedBlock[]): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const b of blocks) {
    for (const o of b.operations) {
      const parameter = JSON.stringify((o.script as Json | undefined)?.code?.[0] ?? null);
      if (
        o.type === 'origination' &&
        o.status === 'applied' &&
        REGISTRY_ENTRYPOINTS.every((e) => parameter.includes(`"%${e}"`))
      )
        out.push([o.originatedContracts[0], b.level]);
    }
  }
  return out;
}

function registryCalls(blocks: NormalizedBlock[]): unknown[][] {
  const known = new Map(registries(blocks));
  return blocks.flatMap((b) =>
    appliedGroupOps(b)
      .filter(
        (o) => o.type === 'transaction' && o.receiver !== undefined && (known.get(o.receiver) ?? Infinity) <= b.level,
      )
      .map((o) => [
        b.level,
        o.receiver,
        o.entrypoint,
        o.entrypoint === 'set' ? (o.parameters as Json).args[0].string : null,
      ]),
  );
}

function callsOf(address: string, blocks: NormalizedBlock[], from: number): unknown[][] {
  return blocks
    .filter((b) => b.level >= from)
    .flatMap((b) =>
      appliedGroupOps(b)
        .filter((o) => o.type === 'transaction' && o.receiver === address)
        .map((o) => [b.level, o.opN]),
    );
}

async function rows(t: TestInstance, table: string, columns: string): Promise<unknown[][]> {
  const res = await t.get(`/tables/${table}?columns=${columns}&limit=50000&order=asc`);
  expect(res.status).to.equal(200);
  return (await res.json()) as unknown[][];
}

async function watches(
  app: TzidxApp,
): Promise<Array<{ address: string; role: string; height: number; codeHash: string | null }>> {
  const list: Json[] = await app.db
    .writer('tzidx.watches')
    .select('address', 'role', 'height', 'types')
    .orderBy(['height', 'address']);
  return list.map((w) => ({
    address: w.address,
    role: w.role,
    height: Number(w.height),
    codeHash: w.types?.codeHash ?? null,
  }));
}

describe(`indexer: watched contracts (${BACKEND})`, function () {
  let t: TestInstance;
  afterEach(async () => t?.close());

  it('claims originated contracts, decodes their calls; a watch made in block N goes when N is rolled back', async function () {
    const chain = new SandboxChain({ seed: 'watches', profile: 'tiny' });
    chain.bake(40);
    const N = 20;
    Object.assign(manualWatch, { blockHash: chain.at(N)!.hash, address: TZBTC });
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
    await indexSandbox(t, chain, { reorgDepth: 30, batchBlocks: 5 });
    let blocks = canonical(chain);
    const claimed = registries(blocks);
    expect(claimed.length).to.be.greaterThan(0);
    const stored = await watches(t.app);
    expect(stored.filter((w) => w.role === 'registry').map((w) => [w.address, w.height])).to.have.deep.members(claimed);
    // tzBTC's origination is not indexed (a bootstrap contract): its code came from the node.
    const manual = stored.filter((w) => w.role === 'manual');
    expect(manual.map((w) => [w.address, w.height])).to.deep.equal([[TZBTC, N]]);
    expect(manual[0].codeHash).to.match(/^[0-9a-f]{16}$/);
    const expectedCalls = registryCalls(blocks);
    expect(expectedCalls.length).to.be.greaterThan(0);
    expect(await rows(t, 'registry_calls', 'height,contract,entrypoint,name')).to.deep.equal(expectedCalls);
    const tzbtcCalls = callsOf(TZBTC, blocks, N);
    expect(tzbtcCalls.length).to.be.greaterThan(0);
    expect(await rows(t, 'manual_calls', 'height,op_n')).to.deep.equal(tzbtcCalls);

    // A reorg that replaces block N: the new block N does not watch, so the watch and its calls go.
    chain.reorg(chain.headLevel - N + 1);
    chain.bake(chain.headLevel < 40 ? 42 - chain.headLevel : 2);
    await indexSandbox(t, chain, { reorgDepth: 30, batchBlocks: 5 });
    blocks = canonical(chain);
    expect(blocks[N].hash).to.not.equal(manualWatch.blockHash);
    const after = await watches(t.app);
    expect(after.filter((w) => w.role === 'manual')).to.deep.equal([]);
    expect(after.filter((w) => w.role === 'registry').map((w) => [w.address, w.height])).to.have.deep.members(
      registries(blocks),
    );
    expect(await rows(t, 'manual_calls', 'height,op_n')).to.deep.equal([]);
    expect(await rows(t, 'registry_calls', 'height,contract,entrypoint,name')).to.deep.equal(registryCalls(blocks));
  });

  it('watches persist across a restart; configured contracts are watched from the start', async function () {
    const chain = new SandboxChain({ seed: 'watches-restart', profile: 'tiny' });
    chain.bake(30);
    const N = 8;
    Object.assign(manualWatch, { blockHash: chain.at(N)!.hash, address: TZBTC });
    const db = await createTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-watches-'));
    fs.writeFileSync(path.join(dir, 'tables.yaml'), EMPTY_CATALOG);
    const config: InstanceConfig = {
      ...DEFAULTS,
      dataDir: dir,
      catalogFile: path.join(dir, 'tables.yaml'),
      databaseUrl: db.url,
    };
    const open = async (extra: Partial<InstanceConfig> = {}): Promise<TestInstance> => {
      const app = await TzidxApp.create({ ...config, ...extra }, { log: silentLogger, available: plugins });
      const { url } = await app.api.listen(0, '127.0.0.1');
      return { app, url, get: (p) => fetch(url + p), insert: async () => undefined, close: () => app.close() };
    };
    try {
      t = await open();
      await indexSandbox(t, chain, { reorgDepth: 4, batchBlocks: 3, toLevel: 15 });
      await t.close();
      // The watch was made at N; after the restart no block watches again, yet tzBTC's calls go on being matched.
      manualWatch.blockHash = '';
      t = await open();
      await indexSandbox(t, chain, { reorgDepth: 4, batchBlocks: 3 });
      const blocks = canonical(chain);
      const expected = callsOf(TZBTC, blocks, N);
      expect(expected.filter(([level]) => (level as number) > 15).length).to.be.greaterThan(0);
      expect(await rows(t, 'manual_calls', 'height,op_n')).to.deep.equal(expected);
      await t.close();

      // A configured address list: ctez calls are matched from the first block, with no watch stored.
      const ctez = 'KT1SjXiUX63QvdNMcM2m492f7kuf8JxXRLp4';
      const fresh = await startTestInstance({
        catalogYaml: EMPTY_CATALOG,
        plugins,
        config: { watch: { manual: [ctez] } },
      });
      t = fresh;
      await indexSandbox(t, chain, { reorgDepth: 4, batchBlocks: 3 });
      const ctezCalls = callsOf(ctez, blocks, 0);
      expect(ctezCalls.length).to.be.greaterThan(0);
      expect(await rows(t, 'manual_calls', 'height,op_n')).to.deep.equal(ctezCalls);
      expect((await watches(t.app)).filter((w) => w.role === 'manual')).to.deep.equal([]);
    } finally {
      await t?.close().catch(() => undefined);
      t = undefined as unknown as TestInstance;
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
