import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

const DEFI = ['core-chain', 'defi-dex', 'defi-farm', 'defi-lending'];
const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => DEFI.includes(p.manifest.name));
const OPTIONS = { reorgDepth: 8 };
/** Every table of the DeFi plugins, compared whole (all columns but the row id). */
const TABLES = [
  'dex_pool',
  'dex_event',
  'dex_trade',
  'dex_position',
  'farm_pool',
  'farm_event',
  'farm_position',
  'lend_pool',
  'lend_event',
  'lend_position',
];

/**
 * Every DEX, farm and lending protocol's traffic together (the sandbox's default): a reorg replacing
 * blocks with calls of several adapters is rolled back generically.
 */
describe(`DeFi: a reorg over every adapter's traffic leaves the tables as a clean run has them (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'dex-reorg', profile: 'tiny' });
  let t: TestInstance;

  before(async () => {
    chain.bakeTo(160);
    t = await startTestInstance({ plugins: plugins() });
    await indexSandbox(t, chain, OPTIONS);
  });
  after(async () => t?.close());

  it('replaces the last 6 blocks by 8 new ones: pools, events, trades and positions of DEXs, farms and lending equal a clean run over the new branch', async () => {
    const entitiesIn = async (from: number) =>
      new Set(
        (await readTable(t, 'dex_event', ['height', 'pool'])).filter((r) => Number(r.height) > from).map((r) => r.pool),
      );
    const replaced = await entitiesIn(chain.headLevel - 6);
    chain.reorg(6);
    chain.bake(8);
    await indexSandbox(t, chain, OPTIONS);
    const added = await entitiesIn(chain.headLevel - 8);
    // The replaced and the new blocks hold calls of several pools, or the comparison proves little.
    expect(new Set([...replaced, ...added]).size, 'pools with events in the reorged blocks').to.be.greaterThan(2);
    const clean = await startTestInstance({ plugins: plugins() });
    try {
      await indexSandbox(clean, chain, OPTIONS);
      const strip = (rows: CsvRow[]) => rows.map(({ row_id: _r, ...rest }) => rest);
      for (const table of TABLES) {
        const cols = t.app.catalog.require(table).columns.map((c) => c.name);
        const rows = strip(await readTable(t, table, cols));
        expect(rows.length, table).to.be.greaterThan(0);
        expect(rows, table).to.deep.equal(strip(await readTable(clean, table, cols)));
      }
      // Every adapter's pools are in the tables: the chain ran every DEX protocol's traffic.
      const entities = new Set((await readTable(clean, 'dex_pool', ['entity'])).map((r) => r.entity));
      expect(entities.size, [...entities].join(', ')).to.be.greaterThan(8);
      // And every farm and lending adapter's pools.
      for (const [table, least] of [
        ['farm_pool', 3],
        ['lend_pool', 2],
      ] as const) {
        const families = new Set((await readTable(clean, table, ['entity'])).map((r) => r.entity));
        expect(families.size, `${table}: ${[...families].join(', ')}`).to.be.at.least(least);
      }
    } finally {
      await clean.close();
    }
  });
});
