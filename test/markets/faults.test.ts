import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { expect } from 'chai';
import nock, { interceptHttpInSuite } from '../chain/support/nock';
import { MarketPoller, DEFAULT_SCHEDULE } from '../../plugins/markets/poll/MarketPoller';
import { VenueState } from '../../plugins/markets/poll/VenueState';
import { silentLogger } from '../../framework/util/Logger';
import { TestInstance } from '../support/TestInstance';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { startMarketsInstance, testVenue } from './MarketsInstance';
import { venueFixtures } from './VenueFixtures';
import { ADAPTERS } from '../../plugins/markets/venues/registry';
import { waitFor } from '../support/CrashRun';

/** After the newest recorded Kraken candle: the recorded candles are all closed and in the backfill window. */
const NOW = Date.UTC(2024, 1, 1, 16);
const SCHEDULE = {
  ...DEFAULT_SCHEDULE,
  backfillMs: 3 * 86_400_000,
  client: { timeoutMs: 300, attempts: 2, backoffMs: 10, maxRetryAfterMs: 5_000 },
};

describe('markets: a failing venue never stops the others (nock)', function () {
  interceptHttpInSuite();
  let t: TestInstance;
  let service: MarketsService;
  const rejections: unknown[] = [];
  const onRejection = (e: unknown): void => void rejections.push(e);
  const fx = venueFixtures();

  before(async function () {
    ({ t, service } = await startMarketsInstance());
    process.on('unhandledRejection', onRejection);
  });
  after(async function () {
    process.off('unhandledRejection', onRejection);
    await t?.close();
  });

  const candleCount = async (exchange: string): Promise<number> => {
    const [{ n }] = await t.app.db.reader
      .withSchema('markets')
      .from('market_candle')
      .where({ exchange })
      .count({ n: '*' });
    return Number(n);
  };

  /**
   * A venue that answers too late. A real socket rather than nock: nock's interceptor trips an
   * internal assertion of Node's bundled undici when a delayed reply arrives after the abort.
   */
  let slow: Server;
  let slowUrl: string;
  before(async function () {
    slow = createServer((_req, res) => void setTimeout(() => res.end(JSON.stringify(fx.bitstamp.ticker)), 1_500));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  });
  after(async function () {
    slow.closeAllConnections();
    await new Promise((r) => slow.close(r));
  });

  it('500, timeout, truncated JSON, wrong schema and 429 mark their venues; the healthy one is stored', async function () {
    const venues: VenueState[] = [
      testVenue('kraken', 'USD'),
      testVenue('binance', 'USDT'),
      testVenue('bitstamp', 'USD', slowUrl),
      testVenue('coinbasepro', 'USD'),
      testVenue('bitfinex', 'USD'),
      testVenue('okex', 'USDT'),
    ];
    const kraken = venues[0].adapter;
    nock(kraken.baseUrl)
      .get(/\/0\/public\/Ticker/)
      .reply(200, fx.kraken.ticker as object);
    nock(kraken.baseUrl)
      .get(/\/0\/public\/OHLC/)
      .reply(200, fx.kraken.candles as object);
    nock('https://api.binance.com').get(/.*/).times(4).reply(500, 'internal error');
    nock('https://api.exchange.coinbase.com')
      .get(/.*/)
      .times(2)
      .reply(200, JSON.stringify(fx.coinbasepro.ticker).slice(0, 40));
    nock('https://api-pub.bitfinex.com').get(/.*/).times(2).reply(200, { unexpected: 'shape' });
    nock('https://www.okx.com').get(/.*/).times(4).reply(429, 'slow down', { 'Retry-After': '1' });

    const poller = new MarketPoller(venues, service.store, SCHEDULE, silentLogger, () => NOW);
    await poller.pollOnce();

    const state = (i: number) => venues[i].markets[0].health;
    expect(state(0).state, String(state(0).last_error)).to.equal('ok');
    expect(await candleCount('kraken')).to.equal(5);
    const ticker = (await (await t.get('/markets/kraken/XTZ_USD/ticker')).json()) as Record<string, unknown>;
    expect(ticker.last).to.equal(73380.6);

    expect(state(1)).to.include({ state: 'failing', last_error: 'HTTP 500' });
    expect(state(2)).to.include({ state: 'failing' });
    expect(state(2).last_error).to.match(/^timeout after 300 ms/);
    expect(state(3).state).to.equal('failing');
    expect(state(3).last_error).to.match(/^invalid JSON/);
    expect(state(4).state).to.equal('failing');
    expect(state(4).last_error).to.match(/^wrong schema: bitfinex (ticker|candles): expected an array/);
    expect(state(5)).to.include({ state: 'rate_limited', last_error: 'rate limited (HTTP 429)' });
    for (const code of ['binance', 'bitstamp', 'coinbasepro', 'bitfinex', 'okex'])
      expect(await candleCount(code), code).to.equal(0);
    // Let the late answers arrive: their settling after the timeout must not reject unhandled.
    await new Promise((r) => setTimeout(r, 1_700));
    expect(rejections).to.deep.equal([]);
  });

  it('a 429 with Retry-After is waited for and retried; the venue is then healthy', async function () {
    const venue = testVenue('huobi', 'USDT');
    nock('https://api.huobi.pro')
      .get(/\/market\/detail\/merged/)
      .reply(429, '', { 'Retry-After': '1' });
    const merged = nock('https://api.huobi.pro')
      .get(/\/market\/detail\/merged/)
      .reply(200, fx.huobi.ticker as object);
    nock('https://api.huobi.pro')
      .get(/\/market\/history\/kline/)
      .reply(200, fx.huobi.candles as object);
    const poller = new MarketPoller(
      [venue],
      service.store,
      { ...SCHEDULE, backfillMs: 10 * 365 * 86_400_000 },
      silentLogger,
      () => Date.UTC(2021, 7, 24, 12),
    );
    await poller.pollOnce();
    expect(merged.isDone()).to.equal(true);
    expect(venue.markets[0].health.state, String(venue.markets[0].health.last_error)).to.equal('ok');
    expect(await candleCount('huobi')).to.equal(2);
  });

  it("every venue polling and backing off at once on the poller's one signal raises no listener warning", async function () {
    // 11 venues, two loops each, all sleeping on one abort signal: more than Node's default of 10 listeners.
    const down = 'http://127.0.0.1:1';
    const venues = ADAPTERS.map((a) => new VenueState({ ...a, minIntervalMs: 0 }, down, 'live', true));
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    const poller = new MarketPoller(venues, service.store, SCHEDULE, silentLogger, () => NOW);
    try {
      poller.start();
      // Every venue's first round fails on the closed port; the loops then back off or wait on the signal.
      await waitFor(
        'every venue failing',
        async () => (venues.every((v) => v.markets[0].health.state === 'failing') ? true : undefined),
        10_000,
      );
      await new Promise((r) => setImmediate(r));
    } finally {
      await poller.stop();
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).to.not.include('MaxListenersExceededWarning');
  });

  it('GET /markets/{exchange} says why a venue is unhealthy', async function () {
    const venue = testVenue('binance', 'USDT');
    nock('https://api.binance.com').get(/.*/).times(4).reply(503, 'maintenance');
    await new MarketPoller([venue], service.store, SCHEDULE, silentLogger, () => NOW).pollOnce();
    const status = venue.status();
    expect(status.state).to.equal('failing');
    expect(status.last_error).to.equal('XTZ_USDT: HTTP 503');
  });
});
