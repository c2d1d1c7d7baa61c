import * as fs from 'node:fs';
import * as path from 'node:path';
import BigNumber from 'bignumber.js';
import { expect } from 'chai';
import nock, { interceptHttpInSuite } from '../chain/support/nock';
import { silentLogger } from '../../framework/util/Logger';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { DEFAULT_SCHEDULE, MarketPoller } from '../../plugins/markets/poll/MarketPoller';
import { VenueState } from '../../plugins/markets/poll/VenueState';
import { readFixtureJson } from '../support/fixtures';
import { TestInstance } from '../support/TestInstance';
import { startMarketsInstance, testVenue } from './MarketsInstance';

// Why: Binance candles get n_buy/n_sell from the venue's aggTrades (recorded mainnet answers, served
// by nock as the exchange) and their buy/sell volumes from the klines; checked against counts taken
// straight from the recorded JSON.

const MINUTE = 60_000;
/** Just after the later recording's minute (2019-06-25 23:54 UTC) has closed. */
const NOW = Date.UTC(2019, 5, 26, 0, 0, 30);
const SCHEDULE = {
  ...DEFAULT_SCHEDULE,
  backfillMs: 3_600_000,
  client: { timeoutMs: 2_000, attempts: 2, backoffMs: 10, maxRetryAfterMs: 1_000 },
};
const BINANCE = 'https://api.binance.com';
const TICKER = readFixtureJson('markets', 'binance', 'ticker-24hr-LTCBTC.json');
const SPLITS = ['n_buy', 'n_sell', 'vol_buy_base', 'vol_buy_quote', 'vol_sell_base', 'vol_sell_quote'];
const COLUMNS = ['time', 'n_trades', 'vol_base', ...SPLITS];

/** One entry of Binance's aggTrades answer, as recorded. */
interface AggTrade {
  a: number;
  p: string;
  q: string;
  f: number;
  l: number;
  T: number;
  m: boolean;
  M: boolean;
}

const read = (file: string): AggTrade[] =>
  JSON.parse(fs.readFileSync(path.resolve('test/fixtures/markets/binance', file), 'utf8')) as AggTrade[];
/** Two recorded answers (../fixtures/markets/SOURCES.md), 18 minutes apart, as one trade history. */
const RECORDED = [
  ...read('aggTrades-BNBUSDT-limit5-1561505770.json'),
  ...read('aggTrades-BNBUSDT-limit5-1561506850.json'),
];

const minuteOf = (t: AggTrade): number => Math.floor(t.T / MINUTE) * MINUTE;
const MINUTES = [...new Set(RECORDED.map(minuteOf))];
const fills = (ts: AggTrade[]): number => ts.reduce((n, t) => n + t.l - t.f + 1, 0);
const eight = (n: BigNumber): string => n.toFixed(8, BigNumber.ROUND_HALF_UP);
const base = (ts: AggTrade[]): BigNumber => ts.reduce((s, t) => s.plus(t.q), new BigNumber(0));
const quote = (ts: AggTrade[]): BigNumber => ts.reduce((s, t) => s.plus(BigNumber(t.p).times(t.q)), new BigNumber(0));

/**
 * The kline the venue would give for a minute of the recording, laid out as Binance's
 * `[open time, o, h, l, c, volume, close time, quote volume, trades, taker buy base, taker buy quote, ignore]`.
 * Test input: neither recording is a whole minute, so the kline claims the recorded trades are the
 * minute's (`extra` adds trades the list does not hold).
 */
function kline(minute: number, extra = 0): unknown[] {
  const ts = RECORDED.filter((t) => minuteOf(t) === minute);
  const takerBuys = ts.filter((t) => !t.m);
  const prices = ts.map((t) => Number(t.p));
  return [
    minute,
    ts[0].p,
    String(Math.max(...prices)),
    String(Math.min(...prices)),
    ts[ts.length - 1].p,
    base(ts).toFixed(),
    minute + MINUTE - 1,
    quote(ts).toFixed(),
    fills(ts) + extra,
    base(takerBuys).toFixed(),
    quote(takerBuys).toFixed(),
    '0',
  ];
}

/** Binance's aggTrades from `startTime` (inclusive) on, cut at `page` entries, from the recording. */
function serveAggTrades(page: number): string[] {
  const asked: string[] = [];
  nock(BINANCE)
    .get('/api/v3/aggTrades')
    .query(true)
    .times(20)
    .reply((req: Request) => {
      const start = Number(new URL(req.url).searchParams.get('startTime'));
      asked.push(String(start));
      return [200, RECORDED.filter((t) => t.T >= start).slice(0, page)];
    });
  return asked;
}

/** What the recorded trades of a minute say, by the maker's side: `m` (buyer was maker) is a taker sell. */
function expected(minute: number): Record<string, number | string> {
  const ts = RECORDED.filter((t) => minuteOf(t) === minute);
  const makerBuys = ts.filter((t) => t.m);
  const makerSells = ts.filter((t) => !t.m);
  return {
    time: minute,
    n_trades: fills(ts),
    n_buy: fills(makerBuys),
    n_sell: fills(makerSells),
    vol_base: eight(base(ts)),
    vol_buy_base: eight(base(makerBuys)),
    vol_buy_quote: eight(quote(makerBuys)),
    vol_sell_base: eight(base(makerSells)),
    vol_sell_quote: eight(quote(makerSells)),
  };
}

describe('markets: Binance n_buy/n_sell from recorded aggTrades (nock)', function () {
  interceptHttpInSuite();
  let t: TestInstance;
  let service: MarketsService;

  beforeEach(async function () {
    ({ t, service } = await startMarketsInstance());
  });
  afterEach(async function () {
    await t?.close();
  });

  /** Polls one round with the given klines; the stored candles as `{column: value}` (decimals to 8 places). */
  async function poll(venue: VenueState, klines: unknown[][]): Promise<Record<string, number | string | null>[]> {
    nock(BINANCE)
      .get('/api/v3/ticker/24hr')
      .query(true)
      .reply(200, TICKER as object);
    nock(BINANCE).get('/api/v3/klines').query(true).reply(200, klines);
    await new MarketPoller([venue], service.store, SCHEDULE, silentLogger, () => NOW).pollOnce();
    const res = await t.get(`/tables/market_candle?exchange=binance&pair=XTZ_USDT&columns=${COLUMNS}&limit=100`);
    const rows = (await res.json()) as Array<Array<number | null>>;
    const fixed = (c: string, v: number | null) =>
      v === null || c === 'time' || c.startsWith('n_') ? v : v.toFixed(8);
    return rows.map((r) => Object.fromEntries(COLUMNS.map((c, i) => [c, fixed(c, r[i])])));
  }

  it("each minute's maker-side counts are the recorded trades', its volumes the kline's", async function () {
    const asked = serveAggTrades(1000);
    const candles = await poll(
      testVenue('binance', 'USDT'),
      MINUTES.map((m) => kline(m)),
    );
    expect(candles).to.deep.equal(MINUTES.map(expected));
    // One request from the first candle's minute on: the answer was not cut, so it holds every trade since.
    expect(asked).to.deep.equal([String(MINUTES[0])]);
    // Both sides occur in each minute: a swapped or one-sided mapping would not match.
    for (const c of candles)
      expect(
        [c.n_buy, c.n_sell].every((n) => Number(n) > 0),
        String(c.time),
      ).to.equal(true);
  });

  it('a page cut inside a millisecond asks for it again: no trade is lost or counted twice', async function () {
    // Six a page: the first page ends on the first of three trades recorded at one millisecond.
    const venue = testVenue('binance', 'USDT');
    const feed = venue.adapter.trades!;
    const paged = new VenueState({ ...venue.adapter, trades: { ...feed, pageSize: 6 } }, BINANCE, 'live', true);
    const cut = RECORDED[5].T;
    expect(RECORDED.filter((x) => x.T === cut).length).to.be.greaterThan(1);
    const asked = serveAggTrades(6);
    const candles = await poll(
      paged,
      MINUTES.map((m) => kline(m)),
    );
    expect(candles).to.deep.equal(MINUTES.map(expected));
    expect(asked).to.deep.equal([String(MINUTES[0]), String(cut)]);
  });

  it('a minute whose kline counts a trade the list lacks keeps null counts; the kline volumes stay', async function () {
    serveAggTrades(1000);
    const candles = await poll(testVenue('binance', 'USDT'), [kline(MINUTES[0]), kline(MINUTES[1], 1)]);
    expect(candles[0]).to.deep.equal(expected(MINUTES[0]));
    const claimed = (expected(MINUTES[1]).n_trades as number) + 1;
    expect(candles[1]).to.deep.equal({ ...expected(MINUTES[1]), n_trades: claimed, n_buy: null, n_sell: null });
  });

  it('aggTrades failing: candles stored at once with kline volumes, null counts; market healthy', async function () {
    nock(BINANCE).get('/api/v3/aggTrades').query(true).times(2).reply(500, 'internal error');
    const venue = testVenue('binance', 'USDT');
    const candles = await poll(
      venue,
      MINUTES.map((m) => kline(m)),
    );
    expect(candles).to.deep.equal(MINUTES.map((m) => ({ ...expected(m), n_buy: null, n_sell: null })));
    expect(nock.pendingMocks()).to.deep.equal([]);
    expect(venue.markets[0].health.state, String(venue.markets[0].health.last_error)).to.equal('ok');
  });
});

describe('markets: Binance aggTrades entries', function () {
  it('m is required to be a boolean, and f…l to be a range', function () {
    const feed = testVenue('binance', 'USDT').adapter.trades!;
    const entry = { a: 1, p: '36.05', q: '0.84', f: 7, l: 9, T: 1561506854461, M: true };
    expect(feed.parse([{ ...entry, m: true }])).to.deep.equal([
      { time: 1561506854461, price: '36.05', volume: '0.84', takerSide: 'sell', count: 3n },
    ]);
    expect(() => feed.parse([{ ...entry, m: 'true' }])).to.throw(/binance aggTrade m/);
    expect(() => feed.parse([{ ...entry, m: false, l: 6 }])).to.throw(/last trade id 6 before first 7/);
  });
});
