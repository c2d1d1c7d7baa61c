import { dec, price } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, isoMs, obj, timeMs } from './Shape';

/**
 * Upbit: markets are QUOTE-BASE (BTC-XTZ); the ticker's open/high/low belong to the current UTC day
 * while the `*_24h` volumes are rolling; candles are objects, newest first, the latest 200 only.
 */
export const upbit: ExchangeAdapter = {
  code: 'upbit',
  name: 'Upbit',
  baseUrl: 'https://api.upbit.com',
  quotes: ['BTC'],
  minIntervalMs: 150,
  maxCandles: 200,
  tickerPath: (symbol) => `/v1/ticker?markets=${symbol}`,
  parseTicker(body) {
    const t = obj(arr(body, 'upbit tickers')[0], 'upbit ticker');
    const [open, last] = [price(t.opening_price, 'upbit open'), price(t.trade_price, 'upbit trade price')];
    const [volBase, volQuote] = [
      dec(t.acc_trade_volume_24h, 'upbit volume'),
      dec(t.acc_trade_price_24h, 'upbit quote volume'),
    ];
    return ticker({
      open,
      high: dec(t.high_price, 'upbit high'),
      low: dec(t.low_price, 'upbit low'),
      last,
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: new Date(timeMs(t.timestamp, 'ms', 'upbit timestamp')),
    });
  },
  candlesPath: (symbol) => `/v1/candles/minutes/1?market=${symbol}&count=200`,
  parseCandles(body) {
    return ascending(
      arr(body, 'upbit candles').map((x) => {
        const c = obj(x, 'upbit candle');
        const [volBase, volQuote] = [
          dec(c.candle_acc_trade_volume, 'upbit volume'),
          dec(c.candle_acc_trade_price, 'upbit quote volume'),
        ];
        return candle({
          time: isoMs(c.candle_date_time_utc, 'upbit time'),
          open: price(c.opening_price, 'upbit open'),
          high: price(c.high_price, 'upbit high'),
          low: price(c.low_price, 'upbit low'),
          close: price(c.trade_price, 'upbit close'),
          vol_base: volBase,
          vol_quote: volQuote,
        });
      }),
    );
  },
};
