import { count, dec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, timeMs, venueError } from './Shape';

/**
 * HTX (legacy code `huobi`): `status:"ok"` answers; the merged ticker is rolling 24h with `amount`
 * base and `vol` quote volume; klines are objects, newest first, the latest N only (no start time).
 */
function ok(body: unknown): Record<string, unknown> {
  const b = obj(body, 'htx');
  venueError(b.status !== 'ok', `status ${String(b.status)} ${String(b['err-msg'] ?? '')}`);
  return b;
}

export const htx: ExchangeAdapter = {
  code: 'huobi',
  name: 'HTX',
  baseUrl: 'https://api.huobi.pro',
  quotes: ['USDT', 'BTC'],
  minIntervalMs: 100,
  maxCandles: 2000,
  tickerPath: (symbol) => `/market/detail/merged?symbol=${symbol}`,
  parseTicker(body) {
    const b = ok(body);
    const t = obj(b.tick, 'htx tick');
    const [open, last] = [price(t.open, 'htx open'), price(t.close, 'htx close')];
    const [volBase, volQuote] = [dec(t.amount, 'htx amount'), dec(t.vol, 'htx vol')];
    return ticker({
      open,
      high: dec(t.high, 'htx high'),
      low: dec(t.low, 'htx low'),
      last,
      n_trades: count(t.count, 'htx count'),
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: new Date(timeMs(b.ts, 'ms', 'htx ts')),
    });
  },
  candlesPath: (symbol) => `/market/history/kline?symbol=${symbol}&period=1min&size=2000`,
  parseCandles(body) {
    return ascending(
      arr(ok(body).data, 'htx klines').map((x) => {
        const c = obj(x, 'htx kline');
        const [volBase, volQuote] = [dec(c.amount, 'htx amount'), dec(c.vol, 'htx vol')];
        return candle({
          time: timeMs(c.id, 's', 'htx id'),
          open: price(c.open, 'htx open'),
          high: price(c.high, 'htx high'),
          low: price(c.low, 'htx low'),
          close: price(c.close, 'htx close'),
          n_trades: count(c.count, 'htx count'),
          vol_base: volBase,
          vol_quote: volQuote,
        });
      }),
    );
  },
};
