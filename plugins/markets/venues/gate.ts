import { dec, price } from '../Decimals';
import BigNumber from 'bignumber.js';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs } from './Shape';

/**
 * Gate (code `gateio`): the ticker is an array even for one pair, with a percent change but no open
 * (open = last / (1 + change/100), rounded to 10 places); candle rows are
 * [t, quote_vol, close, high, low, open, base_vol, window_closed], all strings. Older answers (and the
 * docs' example) have 7 elements whose last is the window flag, without base volume.
 */
const FLAGS = ['true', 'false'];
export const gate: ExchangeAdapter = {
  code: 'gateio',
  name: 'Gate',
  baseUrl: 'https://api.gateio.ws',
  quotes: ['USDT'],
  minIntervalMs: 100,
  maxCandles: 1000,
  tickerPath: (symbol) => `/api/v4/spot/tickers?currency_pair=${symbol}`,
  parseTicker(body, now) {
    const t = obj(arr(body, 'gate tickers')[0], 'gate ticker');
    const last = price(t.last, 'gate last');
    const change = dec(t.change_percentage, 'gate change');
    const [volBase, volQuote] = [dec(t.base_volume, 'gate base volume'), dec(t.quote_volume, 'gate quote volume')];
    return ticker({
      open: new BigNumber(last).div(new BigNumber(change).div(100).plus(1)).decimalPlaces(10).toFixed(),
      high: dec(t.high_24h, 'gate high'),
      low: dec(t.low_24h, 'gate low'),
      last,
      change,
      volume_base: volBase,
      volume_quote: volQuote,
      timestamp: now,
    });
  },
  candlesPath: (symbol, sinceMs, nowMs) => {
    const to = Math.min(nowMs, sinceMs + 999 * 60_000);
    return `/api/v4/spot/candlesticks?currency_pair=${symbol}&interval=1m&from=${Math.floor(sinceMs / 1000)}&to=${Math.floor(to / 1000)}`;
  },
  parseCandles(body) {
    const rows = arr(body, 'gate candles').map((x) => row(x, 7, 'gate candle'));
    return ascending(
      rows
        .filter((r) => (r.length > 7 ? r[7] : r[6]) !== 'false')
        .map((r) => {
          const volBase = FLAGS.includes(String(r[6])) ? null : dec(r[6], 'gate base volume');
          const volQuote = dec(r[1], 'gate quote volume');
          return candle({
            time: timeMs(r[0], 's', 'gate time'),
            open: price(r[5], 'gate open'),
            high: price(r[3], 'gate high'),
            low: price(r[4], 'gate low'),
            close: price(r[2], 'gate close'),
            vol_base: volBase,
            vol_quote: volQuote,
          });
        }),
    );
  },
};
