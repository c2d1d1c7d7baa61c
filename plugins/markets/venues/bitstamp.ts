import { dec, mul, optDec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, timeMs } from './Shape';

/**
 * Bitstamp: `open` is the day's first price, `open_24` the price 24h ago (used here); candles are
 * objects under data.ohlc, oldest first.
 */
export const bitstamp: ExchangeAdapter = {
  code: 'bitstamp',
  name: 'Bitstamp',
  baseUrl: 'https://www.bitstamp.net',
  quotes: ['USD', 'EUR'],
  minIntervalMs: 500,
  maxCandles: 1000,
  tickerPath: (symbol) => `/api/v2/ticker/${symbol}/`,
  parseTicker(body) {
    const t = obj(body, 'bitstamp ticker');
    const volume = dec(t.volume, 'bitstamp volume');
    const vwap = optDec(t.vwap, 'bitstamp vwap');
    return ticker({
      open: price(t.open_24, 'bitstamp open_24'),
      high: dec(t.high, 'bitstamp high'),
      low: dec(t.low, 'bitstamp low'),
      last: price(t.last, 'bitstamp last'),
      change: optDec(t.percent_change_24, 'bitstamp change'),
      vwap,
      volume_base: volume,
      volume_quote: mul(volume, vwap),
      timestamp: new Date(timeMs(t.timestamp, 's', 'bitstamp timestamp')),
    });
  },
  candlesPath: (symbol, sinceMs) => `/api/v2/ohlc/${symbol}/?step=60&limit=1000&start=${Math.floor(sinceMs / 1000)}`,
  parseCandles(body) {
    const data = obj(obj(body, 'bitstamp ohlc').data, 'bitstamp data');
    return ascending(
      arr(data.ohlc, 'bitstamp ohlc').map((x) => {
        const c = obj(x, 'bitstamp candle');
        return candle({
          time: timeMs(c.timestamp, 's', 'bitstamp time'),
          open: price(c.open, 'bitstamp open'),
          high: price(c.high, 'bitstamp high'),
          low: price(c.low, 'bitstamp low'),
          close: price(c.close, 'bitstamp close'),
          vwap: null,
          vol_base: dec(c.volume, 'bitstamp volume'),
          vol_quote: null,
        });
      }),
    );
  },
};
