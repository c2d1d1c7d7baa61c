import { dec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, isoMs, obj, row, timeMs } from './Shape';

/**
 * Coinbase Exchange (legacy code `coinbasepro`): the ticker has the last price and 24h base volume
 * only (no open, high, low, trade count); candle rows are [time, low, high, open, close, volume],
 * newest first, at most 300 per request.
 */
export const coinbase: ExchangeAdapter = {
  code: 'coinbasepro',
  name: 'Coinbase Exchange',
  baseUrl: 'https://api.exchange.coinbase.com',
  quotes: ['USD'],
  minIntervalMs: 250,
  maxCandles: 300,
  tickerPath: (symbol) => `/products/${symbol}/ticker`,
  parseTicker(body) {
    const t = obj(body, 'coinbase ticker');
    return ticker({
      open: null,
      high: null,
      low: null,
      last: price(t.price, 'coinbase price'),
      volume_base: dec(t.volume, 'coinbase volume'),
      volume_quote: null,
      timestamp: new Date(isoMs(t.time, 'coinbase time')),
    });
  },
  candlesPath: (symbol, sinceMs, nowMs) => {
    const end = Math.min(nowMs, sinceMs + 299 * 60_000);
    return `/products/${symbol}/candles?granularity=60&start=${new Date(sinceMs).toISOString()}&end=${new Date(end).toISOString()}`;
  },
  parseCandles(body) {
    return ascending(
      arr(body, 'coinbase candles').map((x) => {
        const r = row(x, 6, 'coinbase candle');
        return candle({
          time: timeMs(r[0], 's', 'coinbase time'),
          open: price(r[3], 'coinbase open'),
          high: price(r[2], 'coinbase high'),
          low: price(r[1], 'coinbase low'),
          close: price(r[4], 'coinbase close'),
          vol_base: dec(r[5], 'coinbase volume'),
          vol_quote: null,
        });
      }),
    );
  },
};
