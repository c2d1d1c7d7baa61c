import { dec, percentOf, price, sub } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, row, timeMs } from './Shape';

/**
 * Bitfinex v2: the ticker is an array without open (open = last − daily change) whose relative change
 * is a fraction; candle rows are [mts, open, close, high, low, volume] (close before high).
 */
export const bitfinex: ExchangeAdapter = {
  code: 'bitfinex',
  name: 'Bitfinex',
  baseUrl: 'https://api-pub.bitfinex.com',
  quotes: ['USD', 'USDT', 'BTC'],
  minIntervalMs: 2100,
  maxCandles: 1000,
  tickerPath: (symbol) => `/v2/ticker/${symbol}`,
  parseTicker(body, now) {
    const t = row(body, 10, 'bitfinex ticker');
    const last = price(t[6], 'bitfinex last');
    return ticker({
      open: sub(last, dec(t[4], 'bitfinex daily change')),
      high: dec(t[8], 'bitfinex high'),
      low: dec(t[9], 'bitfinex low'),
      last,
      change: percentOf(dec(t[5], 'bitfinex relative change')),
      volume_base: dec(t[7], 'bitfinex volume'),
      volume_quote: null,
      timestamp: now,
    });
  },
  candlesPath: (symbol, sinceMs) => `/v2/candles/trade:1m:${symbol}/hist?start=${sinceMs}&limit=1000&sort=1`,
  parseCandles(body) {
    return ascending(
      arr(body, 'bitfinex candles').map((x) => {
        const r = row(x, 6, 'bitfinex candle');
        return candle({
          time: timeMs(r[0], 'ms', 'bitfinex time'),
          open: price(r[1], 'bitfinex open'),
          high: price(r[3], 'bitfinex high'),
          low: price(r[4], 'bitfinex low'),
          close: price(r[2], 'bitfinex close'),
          vol_base: dec(r[5], 'bitfinex volume'),
          vol_quote: null,
        });
      }),
    );
  },
};
