import { dec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs } from './Shape';

/**
 * Bitvavo: a rolling 24h ticker with base and quote volume; candle rows are
 * [timestamp, open, high, low, close, volume] (strings), newest first.
 */
export const bitvavo: ExchangeAdapter = {
  code: 'bitvavo',
  name: 'Bitvavo',
  baseUrl: 'https://api.bitvavo.com',
  quotes: ['EUR'],
  minIntervalMs: 100,
  maxCandles: 1440,
  tickerPath: (symbol) => `/v2/ticker/24h?market=${symbol}`,
  parseTicker(body) {
    const t = obj(body, 'bitvavo ticker');
    const [open, last] = [price(t.open, 'bitvavo open'), price(t.last, 'bitvavo last')];
    const [volBase, volQuote] = [dec(t.volume, 'bitvavo volume'), dec(t.volumeQuote, 'bitvavo volumeQuote')];
    return ticker({
      open,
      high: dec(t.high, 'bitvavo high'),
      low: dec(t.low, 'bitvavo low'),
      last,
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: new Date(timeMs(t.timestamp, 'ms', 'bitvavo timestamp')),
    });
  },
  candlesPath: (symbol, sinceMs) => `/v2/${symbol}/candles?interval=1m&start=${sinceMs}&limit=1440`,
  parseCandles(body) {
    return ascending(
      arr(body, 'bitvavo candles').map((x) => {
        const r = row(x, 6, 'bitvavo candle');
        return candle({
          time: timeMs(r[0], 'ms', 'bitvavo time'),
          open: price(r[1], 'bitvavo open'),
          high: price(r[2], 'bitvavo high'),
          low: price(r[3], 'bitvavo low'),
          close: price(r[4], 'bitvavo close'),
          vol_base: dec(r[5], 'bitvavo volume'),
          vol_quote: null,
        });
      }),
    );
  },
};
