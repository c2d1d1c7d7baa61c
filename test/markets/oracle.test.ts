import { expect } from 'chai';
import { PriceOracle } from '../../plugins/markets';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { recordFailure } from '../../plugins/markets/poll/VenueHealth';
import { TestInstance } from '../support/TestInstance';
import { startMarketsInstance, testVenue } from './MarketsInstance';

const MINUTE = 60_000;
const T = Date.UTC(2024, 5, 1, 12, 0);

/** One candle with only the close mattering for the oracle. */
function candle(exchange: string, pair: string, time: number, close: string): Record<string, unknown> {
  return { exchange, pair, time: new Date(time), open: close, high: close, low: close, close };
}

describe('markets: the XTZ price oracle (median across venues)', function () {
  let t: TestInstance;
  let service: MarketsService;
  let oracle: PriceOracle;

  before(async function () {
    ({ t, service } = await startMarketsInstance());
    oracle = t.app.container.resolve(PriceOracle);
    await t.insert('market_candle', [
      // Three USD venues at T; bitstamp stops 20 minutes before T (stale by then).
      candle('kraken', 'XTZ_USD', T - MINUTE, '0.90'),
      candle('kraken', 'XTZ_USD', T, '1.00'),
      candle('coinbasepro', 'XTZ_USD', T - 2 * MINUTE, '1.10'),
      candle('bitstamp', 'XTZ_USD', T - 20 * MINUTE, '5.00'),
      candle('bitfinex', 'XTZ_USD', T - 5 * MINUTE, '1.30'),
      candle('bitfinex', 'XTZ_USD', T + MINUTE, '9.99'),
      // Stablecoin markets, used only where no XTZ_USD close exists.
      candle('binance', 'XTZ_USDT', T - 60 * MINUTE, '2.00'),
      candle('okex', 'XTZ_USDT', T - 60 * MINUTE, '2.10'),
      // EUR: two venues.
      candle('kraken', 'XTZ_EUR', T, '0.80'),
      candle('bitvavo', 'XTZ_EUR', T, '0.85'),
    ]);
  });
  after(async () => t?.close());

  it('is what other plugins resolve from the container', function () {
    expect(oracle).to.equal(service.oracle);
  });

  it('odd count: the middle close; stale venues (>15 min) and later candles are left out', async function () {
    const p = await oracle.price('USD', new Date(T + 30_000));
    expect(p?.price).to.equal('1.1');
    expect(p?.sources.map((s) => s.exchange).sort()).to.deep.equal(['bitfinex', 'coinbasepro', 'kraken']);
  });

  it('even count: the exact mean of the two middle closes', async function () {
    expect((await oracle.price('EUR', new Date(T)))?.price).to.equal('0.825');
    // At T-2m: coinbase (1.10, that minute) and bitfinex (1.30, T-5m); kraken's first candle is later, bitstamp's 18
    // min old.
    expect((await oracle.price('USD', new Date(T - 2 * MINUTE)))?.price).to.equal('1.2');
  });

  it('with venues missing: one venue is its own median; none gives the stablecoin fallback, then nothing', async function () {
    expect((await oracle.price('USD', new Date(T - 19 * MINUTE)))?.price).to.equal('5');
    const fallback = await oracle.price('USD', new Date(T - 50 * MINUTE));
    expect(fallback?.price).to.equal('2.05');
    expect(fallback?.sources.map((s) => s.pair)).to.deep.equal(['XTZ_USDT', 'XTZ_USDT']);
    expect(await oracle.price('EUR', new Date(T - 60 * MINUTE))).to.equal(undefined);
  });

  it('near the present, a venue whose last poll failed is not counted', async function () {
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await t.insert('market_candle', [
      candle('kraken', 'XTZ_USD', now - MINUTE, '1.50'),
      candle('kraken', 'XTZ_EUR', now - MINUTE, '1.40'),
    ]);
    // The offline instance polls the simulated kraken; here its XTZ_USD market is marked failing.
    const market = service.venue('kraken')!.market('XTZ_USD')!;
    expect((await oracle.price('USD'))?.price).to.equal('1.5');
    recordFailure(market.health, 'HTTP 500', false, new Date());
    expect(await oracle.price('USD')).to.equal(undefined);
    expect((await oracle.price('EUR'))?.price).to.equal('1.4');
    expect(testVenue('kraken', 'USD').markets[0].health.state).to.equal('pending');
  });
});
