import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';

const TRADE_COLUMNS = ['height', 'pool', 'side', 'price_usd', 'volume_usd', 'fees_usd'];
const TEZ_USD = '2.000000000000000000';
const EVENT_COLUMNS = ['height', 'pool', 'event_type', 'value_usd'];

/**
 * The USD values frozen into trades and events while indexing come from the pools as they are just
 * before the action, this batch's changes included: the same chain indexed one block a batch and
 * 50 blocks a batch writes the same values. (Read from the database instead, a token's price would
 * come from its pools as the batch began, and be missing for a pool made in the batch.)
 */
describe('defi-dex: record-time USD values do not depend on where batches start', function () {
  this.timeout(300_000);
  const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]);
  const chain = new SandboxChain({
    seed: 'dex-record-usd',
    profile: 'tiny',
    traffic: ['defi-dex:lb', 'defi-dex:quipuswap'],
  });
  const runs: Record<'single' | 'batched' | 'late', { trades: CsvRow[]; events: CsvRow[] }> = {} as never;
  /** The block the first tez price of the `late` run is at. */
  const LATE = 30;
  let pools: CsvRow[] = [];

  before(async () => {
    chain.bakeTo(60);
    for (const [name, batchBlocks] of [
      ['single', 1],
      ['batched', 50],
      ['late', 50],
    ] as const) {
      const t: TestInstance = await startTestInstance({ plugins });
      try {
        // One XTZ_USD close older than every block (every block has a tez price), or at block LATE's time.
        const time = name === 'late' ? new Date(chain.at(LATE)!.timestamp) : new Date(0);
        await t.insert('market_candle', [
          { exchange: 'kraken', pair: 'XTZ_USD', time, open: TEZ_USD, high: TEZ_USD, low: TEZ_USD, close: TEZ_USD },
        ]);
        await indexSandbox(t, chain, { batchBlocks });
        runs[name] = {
          trades: await readTable(t, 'dex_trade', TRADE_COLUMNS),
          events: await readTable(t, 'dex_event', EVENT_COLUMNS),
        };
        if (name === 'batched') pools = await readTable(t, 'dex_pool', ['pool', 'token_a', 'token_b', 'first_height']);
      } finally {
        await t.close();
      }
    }
  });

  it('prices tokens through their tez pools, pools made in the batch included', () => {
    const { trades } = runs.batched;
    // A base priced at anything but tez's own price went through a token's pools against tez.
    const tokenPriced = trades.filter((tr) => tr.price_usd !== '' && tr.price_usd !== TEZ_USD);
    expect(tokenPriced.length, 'trades pricing a token through a tez pool').to.be.greaterThan(5);
    // Pools opened inside the first 50-block batch: their trades in that batch are priced too.
    const early = new Set(pools.filter((p) => Number(p.first_height) <= 50).map((p) => p.pool));
    const earlyTrades = tokenPriced.filter((tr) => early.has(tr.pool) && Number(tr.height) <= 50);
    expect(earlyTrades.length, 'token-priced trades of pools made in the first batch').to.be.greaterThan(0);
  });

  it('writes the same trades and events one block a batch and 50 blocks a batch', () => {
    expect(runs.batched.trades.length).to.be.greaterThan(10);
    expect(runs.batched.trades).to.deep.equal(runs.single.trades);
    expect(runs.batched.events).to.deep.equal(runs.single.events);
  });

  it('has no USD values before the first tez price and the same values as the other runs from it on, inside one batch', () => {
    const { trades, events } = runs.late;
    const before = (r: CsvRow): boolean => Number(r.height) < LATE;
    expect(trades.filter(before).length).to.be.greaterThan(0);
    expect(trades.filter(before).filter((tr) => tr.price_usd !== '')).to.deep.equal([]);
    expect(events.filter(before).filter((e) => e.value_usd !== '')).to.deep.equal([]);
    expect(trades.filter((tr) => !before(tr))).to.deep.equal(runs.batched.trades.filter((tr) => !before(tr)));
    expect(events.filter((e) => !before(e))).to.deep.equal(runs.batched.events.filter((e) => !before(e)));
  });
});
