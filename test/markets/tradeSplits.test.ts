import BigNumber from 'bignumber.js';
import { expect } from 'chai';
import { silentLogger } from '../../framework/util/Logger';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { DEFAULT_SCHEDULE, MarketPoller } from '../../plugins/markets/poll/MarketPoller';
import { CandleRecord } from '../../plugins/markets/Records';
import { SimulatedExchange } from '../../plugins/markets/sandbox/SimulatedExchange';
import { withTradeSplits } from '../../plugins/markets/TradeSplits';
import { kraken } from '../../plugins/markets/venues/kraken';
import { TestInstance } from '../support/TestInstance';
import { startMarketsInstance, testVenue } from './MarketsInstance';

// Why: the OHLCV buy/sell columns come from a venue's trade list (Kraken's `Trades`, here the simulated
// exchange's), counted by the maker's side; checked against the venue's own trade JSON.

const MINUTE = 60_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 15, 12, 0, 30);
const HOURS = 3;
const SPLITS = ['n_buy', 'n_sell', 'vol_buy_base', 'vol_buy_quote', 'vol_sell_base', 'vol_sell_quote'];
type Row = Record<string, number | null>;
/** Kraken's trade row: price, volume, time (s), taker side, order type, misc, id. */
type KrakenTrade = [string, string, number, 'b' | 's', string, string, number];

/** The venue's trades, read page by page as its JSON gives them. */
async function venueTrades(url: string): Promise<KrakenTrade[]> {
  const out: KrakenTrade[] = [];
  let since = '0';
  for (let page = 0; page < 1000; page++) {
    const res = await fetch(`${url}/0/public/Trades?pair=XTZUSD&since=${since}`);
    const { result } = (await res.json()) as { result: Record<string, unknown> };
    const rows = result.XTZUSD as KrakenTrade[];
    out.push(...rows);
    if (rows.length < 1000) return out;
    since = result.last as string;
  }
  throw new Error('the venue never ran out of trades');
}

/** What a minute's trades say, as the maker's side: a taker sell ('s') met a maker buyer. */
function oracle(trades: KrakenTrade[]): Record<string, string | number> {
  const eight = (n: BigNumber) => n.toFixed(8, BigNumber.ROUND_HALF_UP);
  const base = (ts: KrakenTrade[]) => eight(ts.reduce((a, t) => a.plus(t[1]), new BigNumber(0)));
  const quote = (ts: KrakenTrade[]) => eight(ts.reduce((a, t) => a.plus(BigNumber(t[0]).times(t[1])), BigNumber(0)));
  const buy = trades.filter((t) => t[3] === 's');
  const sell = trades.filter((t) => t[3] === 'b');
  return {
    n_buy: buy.length,
    n_sell: sell.length,
    vol_buy_base: base(buy),
    vol_buy_quote: quote(buy),
    vol_sell_base: base(sell),
    vol_sell_quote: quote(sell),
  };
}

describe("markets: buy/sell splits of candles from the venue's trades", function () {
  let t: TestInstance;
  let service: MarketsService;
  let exchange: SimulatedExchange;
  let candles: Row[];
  let trades: KrakenTrade[];

  before(async function () {
    ({ t, service } = await startMarketsInstance());
    exchange = new SimulatedExchange(7, () => NOW);
    const url = await exchange.listen();
    const schedule = { ...DEFAULT_SCHEDULE, backfillMs: HOURS * HOUR, maxPagesPerRound: 50 };
    const venue = testVenue('kraken', 'USD', url);
    await new MarketPoller([venue], service.store, schedule, silentLogger, () => NOW).pollOnce();
    trades = await venueTrades(url);
    const columns = ['time', 'n_trades', 'vol_base', 'vol_quote', ...SPLITS];
    const res = await t.get(`/tables/market_candle?exchange=kraken&pair=XTZ_USD&columns=${columns}&limit=50000`);
    const rows = (await res.json()) as Array<Array<number | null>>;
    candles = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
  });
  after(async function () {
    await exchange?.close();
    await t?.close();
  });

  it("every stored minute has its maker-side counts and volumes, equal to the venue's trades", function () {
    // The backfill starts 3 h before NOW (30 s into a minute): the next minute to the last closed one.
    expect(candles.length).to.equal(HOURS * 60 - 1);
    const fixed = (v: number | null) => (v === null ? null : v.toFixed(8));
    let buys = 0;
    for (const c of candles) {
      const at = new Date(c.time!).toISOString();
      const want = oracle(trades.filter((x) => Math.floor((x[2] * 1000) / MINUTE) * MINUTE === c.time));
      const got = Object.fromEntries(SPLITS.map((k) => [k, k.startsWith('n_') ? c[k] : fixed(c[k])]));
      expect(got, at).to.deep.equal(want);
      expect(c.n_buy! + c.n_sell!, at).to.equal(c.n_trades);
      expect((c.vol_buy_base! + c.vol_sell_base!).toFixed(8), at).to.equal(fixed(c.vol_base));
      buys += c.n_buy!;
    }
    // Both sides occur: a swapped or one-sided mapping would not match the oracle above.
    expect(buys).to.be.within(1, candles.reduce((s, c) => s + c.n_trades!, 0) - 1);
  });

  it('collapsed: counts and split volumes are sums, vwap is volume-weighted over the bucket', async function () {
    const start = new Date(candles[0].time!).toISOString();
    const columns = 'time,vwap,n_trades,n_buy,n_sell,vol_base,vol_quote,vol_buy_base';
    const query = `collapse=1h&start_date=${start}&limit=${HOURS}&columns=${columns}`;
    const res = await t.get(`/series/kraken/XTZ_USD/ohlcv?${query}`);
    const rows = (await res.json()) as number[][];
    expect(rows.length).to.equal(HOURS);
    for (const [time, vwap, nTrades, nBuy, nSell, volBase, volQuote, volBuyBase] of rows) {
      const mine = candles.filter((c) => c.time! >= time && c.time! < time + HOUR);
      const total = (k: string) => mine.reduce((s, c) => s + c[k]!, 0);
      expect([nTrades, nBuy, nSell]).to.deep.equal([total('n_trades'), total('n_buy'), total('n_sell')]);
      expect(volBuyBase).to.be.closeTo(total('vol_buy_base'), 1e-6);
      // Σ quote / Σ base of its minutes (Kraken's quote volume is volume × vwap), not their plain mean or the last.
      expect(vwap).to.be.closeTo(volQuote / volBase, 1e-9);
      expect(vwap).to.be.closeTo(total('vol_quote') / total('vol_base'), 1e-9);
    }
  });

  it("a minute the trade list does not cover whole, or whose count is not the candle's, keeps null splits", () => {
    const candle = (time: number, n: number): CandleRecord => ({
      time,
      open: '1',
      high: '1',
      low: '1',
      close: '1',
      vwap: '1',
      n_trades: BigInt(n),
      n_buy: null,
      n_sell: null,
      vol_base: '3',
      vol_quote: '3',
      vol_buy_base: null,
      vol_buy_quote: null,
      vol_sell_base: null,
      vol_sell_quote: null,
    });
    const trade = (time: number, side: 'buy' | 'sell', count = 1n) => ({
      time,
      price: '1',
      volume: '1',
      takerSide: side,
      count,
    });
    const trades = [trade(10, 'buy'), trade(20, 'sell'), trade(MINUTE + 10, 'buy'), trade(2 * MINUTE + 10, 'sell')];
    const candles = [candle(0, 2), candle(MINUTE, 2), candle(2 * MINUTE, 1)];
    const [whole, miscounted, uncovered] = withTradeSplits(candles, trades, 2 * MINUTE + 30);
    expect(whole).to.include({ n_buy: 1n, n_sell: 1n, vol_buy_base: '1', vol_sell_quote: '1' });
    expect(miscounted).to.include({ n_buy: null, n_sell: null, vol_buy_base: null });
    expect(uncovered).to.include({ n_buy: null, n_sell: null, vol_sell_base: null });
    // An aggregated entry counts its fills; volumes the venue's candle has (Binance's klines) are kept.
    const kline = { ...candle(0, 4), vol_buy_base: '7', vol_buy_quote: '7', vol_sell_base: '8', vol_sell_quote: '8' };
    const [aggregated] = withTradeSplits([kline], [trade(10, 'buy', 3n), trade(20, 'sell')], MINUTE);
    expect(aggregated).to.include({ n_buy: 1n, n_sell: 3n, vol_buy_base: '7', vol_buy_quote: '7', vol_sell_base: '8' });
  });

  it("Kraken's trade rows: a side other than b or s is the venue's error, never a guess", () => {
    const row = (side: string) => ['0.7', '12.5', 1700000000.25, side, 'l', '', 1];
    const body = (side: string) => ({ error: [], result: { XTZUSD: [row(side)], last: '1' } });
    expect(kraken.trades!.parse(body('s'))).to.deep.equal([
      { time: 1_700_000_000_250, price: '0.7', volume: '12.5', takerSide: 'sell', count: 1n },
    ]);
    expect(() => kraken.trades!.parse(body('x'))).to.throw(/kraken trade side/);
  });
});
