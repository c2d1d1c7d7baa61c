import { dec, percentOf, price, sub } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs, venueError } from './Shape';

/**
 * KuCoin: `{code:"200000", data}` answers; stats give last and the 24h change (open = last − change
 * price, changeRate a fraction); `averagePrice` is not a VWAP (vwap = volValue / vol). Candle rows are
 * [time, open, close, high, low, volume, turnover], newest first.
 */
function data(body: unknown): unknown {
  const b = obj(body, 'kucoin');
  venueError(b.code !== '200000', `code ${String(b.code)} ${String(b.msg ?? '')}`);
  return b.data;
}

export const kucoin: ExchangeAdapter = {
  code: 'kucoin',
  name: 'KuCoin',
  baseUrl: 'https://api.kucoin.com',
  quotes: ['USDT', 'BTC'],
  minIntervalMs: 200,
  maxCandles: 1500,
  tickerPath: (symbol) => `/api/v1/market/stats?symbol=${symbol}`,
  parseTicker(body) {
    const t = obj(data(body), 'kucoin stats');
    const last = price(t.last, 'kucoin last');
    const [volBase, volQuote] = [dec(t.vol, 'kucoin vol'), dec(t.volValue, 'kucoin volValue')];
    return ticker({
      open: sub(last, dec(t.changePrice, 'kucoin changePrice')),
      high: dec(t.high, 'kucoin high'),
      low: dec(t.low, 'kucoin low'),
      last,
      change: percentOf(dec(t.changeRate, 'kucoin changeRate')),
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: new Date(timeMs(t.time, 'ms', 'kucoin time')),
    });
  },
  candlesPath: (symbol, sinceMs, nowMs) =>
    `/api/v1/market/candles?symbol=${symbol}&type=1min&startAt=${Math.floor(sinceMs / 1000)}&endAt=${Math.floor(nowMs / 1000)}`,
  parseCandles(body) {
    return ascending(
      arr(data(body), 'kucoin candles').map((x) => {
        const r = row(x, 7, 'kucoin candle');
        const [volBase, volQuote] = [dec(r[5], 'kucoin volume'), dec(r[6], 'kucoin turnover')];
        return candle({
          time: timeMs(r[0], 's', 'kucoin time'),
          open: price(r[1], 'kucoin open'),
          high: price(r[3], 'kucoin high'),
          low: price(r[4], 'kucoin low'),
          close: price(r[2], 'kucoin close'),
          vol_base: volBase,
          vol_quote: volQuote,
        });
      }),
    );
  },
};
