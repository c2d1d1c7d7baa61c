import { count, dec, mul, optDec, price, VenueDataError } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs, venueError } from './Shape';

/**
 * Kraken: the answer's `result` is keyed by Kraken's own pair name (which may differ from the
 * request), so the first key that is not `last` is taken. `o` is today's (UTC) open, not 24h ago; the
 * last OHLC entry is the minute still in progress and is dropped. `Trades` lists up to 1000 trades
 * after `since` (ns), each `[price, volume, time (s), "b"|"s" (taker side), …]`.
 */
function result(body: unknown): unknown {
  const b = obj(body, 'kraken');
  const errors = arr(b.error ?? [], 'kraken error');
  venueError(errors.length > 0, errors.join('; '));
  const r = obj(b.result, 'kraken result');
  const key = Object.keys(r).find((k) => k !== 'last');
  if (key === undefined) throw new Error('kraken result: no pair');
  return r[key];
}

export const kraken: ExchangeAdapter = {
  code: 'kraken',
  name: 'Kraken',
  baseUrl: 'https://api.kraken.com',
  quotes: ['USD', 'EUR', 'BTC', 'ETH'],
  minIntervalMs: 1100,
  maxCandles: 720,
  tickerPath: (symbol) => `/0/public/Ticker?pair=${symbol}`,
  parseTicker(body, now) {
    const t = obj(result(body), 'kraken ticker');
    const vwap = optDec(row(t.p, 2, 'kraken p')[1], 'kraken vwap');
    const volume = optDec(row(t.v, 2, 'kraken v')[1], 'kraken volume');
    return ticker({
      open: price(t.o, 'kraken open'),
      high: dec(row(t.h, 2, 'kraken h')[1], 'kraken high'),
      low: dec(row(t.l, 2, 'kraken l')[1], 'kraken low'),
      last: price(row(t.c, 1, 'kraken c')[0], 'kraken last'),
      vwap,
      n_trades: count(row(t.t, 2, 'kraken t')[1], 'kraken trades'),
      volume_base: volume,
      volume_quote: mul(volume, vwap),
      timestamp: now,
    });
  },
  candlesPath: (symbol, sinceMs) => `/0/public/OHLC?pair=${symbol}&interval=1&since=${Math.floor(sinceMs / 1000)}`,
  parseCandles(body) {
    const rows = arr(result(body), 'kraken ohlc').slice(0, -1);
    return ascending(
      rows.map((x) => {
        const r = row(x, 8, 'kraken candle');
        const [vwap, vol] = [dec(r[5], 'kraken vwap'), dec(r[6], 'kraken volume')];
        return candle({
          time: timeMs(r[0], 's', 'kraken time'),
          open: price(r[1], 'kraken open'),
          high: price(r[2], 'kraken high'),
          low: price(r[3], 'kraken low'),
          close: price(r[4], 'kraken close'),
          vwap,
          n_trades: count(r[7], 'kraken count'),
          vol_base: vol,
          vol_quote: mul(vol, vwap),
        });
      }),
    );
  },
  trades: {
    path: (symbol, afterMs) => `/0/public/Trades?pair=${symbol}&since=${BigInt(afterMs) * 1_000_000n}`,
    pageSize: 1000,
    parse(body) {
      const trades = arr(result(body), 'kraken trades').map((x) => {
        const r = row(x, 4, 'kraken trade');
        if (r[3] !== 'b' && r[3] !== 's') throw new VenueDataError(`kraken trade side: '${String(r[3])}'`);
        return {
          time: timeMs(r[2], 's', 'kraken trade time'),
          price: price(r[0], 'kraken trade price'),
          volume: dec(r[1], 'kraken trade volume'),
          takerSide: r[3] === 'b' ? ('buy' as const) : ('sell' as const),
          count: 1n,
        };
      });
      return trades.sort((a, b) => a.time - b.time);
    },
  },
};
