import { readFixtureJson } from '../support/fixtures';
import { ExchangeAdapter } from '../../plugins/markets/venues/Adapter';
import { ADAPTERS } from '../../plugins/markets/venues/registry';

/**
 * The recorded answers of each venue (../shared/fixtures/markets), as the venue would send them for
 * an XTZ market. Only wrappers change: Kraken's pair key becomes Kraken's XTZ spelling (the adapter
 * must take the first key, not look up the request), OKX's WebSocket ticker object is put in its REST
 * envelope. Bitvavo has no recorded ticker.
 */
export interface VenueFixture {
  adapter: ExchangeAdapter;
  ticker?: unknown;
  candles: unknown;
}

function adapter(code: string): ExchangeAdapter {
  const a = ADAPTERS.find((x) => x.code === code);
  if (!a) throw new Error(`no adapter ${code}`);
  return a;
}

const f = (venue: string, file: string): unknown => readFixtureJson('markets', venue, file);

function renameKrakenPair(body: unknown): unknown {
  const b = body as { error: unknown[]; result: Record<string, unknown> };
  const [[, value], ...rest] = Object.entries(b.result);
  return { error: b.error, result: { XXTZZUSD: value, ...Object.fromEntries(rest) } };
}

export function venueFixtures(): Record<string, VenueFixture> {
  return {
    kraken: {
      adapter: adapter('kraken'),
      ticker: renameKrakenPair(f('kraken', 'ticker-XBTUSDT.json')),
      candles: renameKrakenPair(f('kraken', 'ohlc-XBTUSDT-1h.json')),
    },
    coinbasepro: {
      adapter: adapter('coinbasepro'),
      ticker: f('coinbase', 'ticker-BTC-USDT.json'),
      candles: f('coinbase', 'candles-BTC-USDT-3600.json'),
    },
    binance: {
      adapter: adapter('binance'),
      ticker: f('binance', 'ticker-24hr-LTCBTC.json'),
      candles: f('binance', 'klines-BTCUSDT-1m-limit1.json'),
    },
    bitfinex: {
      adapter: adapter('bitfinex'),
      ticker: f('bitfinex', 'v2-ticker-tBTCUST.json'),
      candles: f('bitfinex', 'v2-candles-trade-1h-tBTCUST-hist.json'),
    },
    bitstamp: {
      adapter: adapter('bitstamp'),
      ticker: f('bitstamp', 'ticker-btcusdt.json'),
      candles: f('bitstamp', 'ohlc-btcusdt-3600.json'),
    },
    okex: {
      adapter: adapter('okex'),
      ticker: { code: '0', msg: '', data: (f('okx', 'ws-tickers-BTC-USDT.json') as { data: unknown[] }).data },
      candles: f('okx', 'market-candles-full.json'),
    },
    gateio: {
      adapter: adapter('gateio'),
      ticker: f('gate', 'spot-tickers.docs.json'),
      candles: f('gate', 'spot-candlesticks.docs.json'),
    },
    huobi: {
      adapter: adapter('huobi'),
      ticker: f('htx', 'market-detail-merged-btcusdt.docs.json'),
      candles: f('htx', 'market-history-kline-btcusdt-5min.docs.json'),
    },
    kucoin: {
      adapter: adapter('kucoin'),
      ticker: f('kucoin', 'market-stats-BTC-USDT.json'),
      candles: f('kucoin', 'market-candles-BTC-USDT-1hour.json'),
    },
    bitvavo: { adapter: adapter('bitvavo'), candles: f('bitvavo', 'candles-BTC-EUR-1m-limit5.json') },
    upbit: {
      adapter: adapter('upbit'),
      ticker: f('upbit', 'ticker-USDT-BTC.json'),
      candles: f('upbit', 'candles-minutes-60-USDT-BTC.json'),
    },
  };
}
