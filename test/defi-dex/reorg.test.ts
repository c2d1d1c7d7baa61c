import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => ['core-chain', 'defi-dex'].includes(p.manifest.name));
const OPTIONS = { reorgDepth: 8 };
/** Every DEX table and the columns a reorg could leave wrong. */
const TABLES: Array<[string, string[]]> = [
  ['dex_pool', ['pool', 'entity', 'supply_a', 'supply_b', 'supply_c', 'supply_d', 'supply_lp', 'num_trades', 'num_lps', 'num_total_lps', 'num_total_users', 'update_height']],
  ['dex_event', ['pool', 'height', 'event_type', 'volume_a', 'volume_b', 'volume_lp', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash']],
  ['dex_trade', ['pool', 'height', 'side', 'base_volume', 'quote_volume', 'lp_fee', 'price_before', 'price_after', 'tx_hash']],
  ['dex_position', ['position', 'shares', 'shares_minted', 'shares_burned', 'shares_sent', 'shares_received', 'is_closed']],
];

/** Every DEX protocol's traffic together: a reorg replacing blocks with calls of several adapters is rolled back generically. */
describe(`defi-dex: a reorg over every adapter's traffic leaves the tables as a clean run has them (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'dex-reorg', profile: 'tiny' });
  let t: TestInstance;

  before(async () => {
    chain.bakeTo(160);
    t = await startTestInstance({ plugins: plugins() });
    await indexSandbox(t, chain, OPTIONS);
  });
  after(async () => t?.close());

  it('replaces the last 6 blocks by 8 new ones: pools, events, trades and positions equal a clean run over the new branch', async () => {
    const entitiesIn = async (from: number) => new Set((await readTable(t, 'dex_event', ['height', 'pool'])).filter((r) => Number(r.height) > from).map((r) => r.pool));
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
      for (const [table, cols] of TABLES) {
        const rows = strip(await readTable(t, table, cols));
        expect(rows.length, table).to.be.greaterThan(0);
        expect(rows, table).to.deep.equal(strip(await readTable(clean, table, cols)));
      }
      // Every adapter's pools are in the tables: the chain ran every DEX protocol's traffic.
      const entities = new Set((await readTable(clean, 'dex_pool', ['entity'])).map((r) => r.entity));
      expect(entities.size, [...entities].join(', ')).to.be.greaterThan(8);
    } finally {
      await clean.close();
    }
  });
});
