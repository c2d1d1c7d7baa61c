import { dec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs, venueError } from './Shape';

/**
 * OKX (legacy code `okex`): answers are `{code:"0", data:[…]}`; for spot, `vol24h` is base and
 * `volCcy24h` quote volume. Candles are newest first; `confirm` "0" marks the minute in progress.
 * Candles cannot start at a time: the latest 300 are read.
 */
function data(body: unknown): unknown[] {
  const b = obj(body, 'okx');
  venueError(b.code !== '0', `code ${String(b.code)} ${String(b.msg ?? '')}`);
  return arr(b.data, 'okx data');
}

export const okx: ExchangeAdapter = {
  code: 'okex',
  name: 'OKX',
  baseUrl: 'https://www.okx.com',
  quotes: ['USDT', 'BTC'],
  minIntervalMs: 150,
  maxCandles: 300,
  tickerPath: (symbol) => `/api/v5/market/ticker?instId=${symbol}`,
  parseTicker(body) {
    const t = obj(data(body)[0], 'okx ticker');
    const [open, last] = [price(t.open24h, 'okx open'), price(t.last, 'okx last')];
    const [volBase, volQuote] = [dec(t.vol24h, 'okx vol24h'), dec(t.volCcy24h, 'okx volCcy24h')];
    return ticker({
      open,
      high: dec(t.high24h, 'okx high'),
      low: dec(t.low24h, 'okx low'),
      last,
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: new Date(timeMs(t.ts, 'ms', 'okx ts')),
    });
  },
  candlesPath: (symbol) => `/api/v5/market/candles?instId=${symbol}&bar=1m&limit=300`,
  parseCandles(body) {
    const rows = data(body).map((x) => row(x, 9, 'okx candle'));
    return ascending(
      rows
        .filter((r) => r[8] !== '0')
        .map((r) => {
          const [volBase, volQuote] = [dec(r[5], 'okx vol'), dec(r[7], 'okx volCcyQuote')];
          return candle({
            time: timeMs(r[0], 'ms', 'okx time'),
            open: price(r[1], 'okx open'),
            high: price(r[2], 'okx high'),
            low: price(r[3], 'okx low'),
            close: price(r[4], 'okx close'),
            vol_base: volBase,
            vol_quote: volQuote,
          });
        }),
    );
  },
};
