import { count, dec, price, sub, VenueDataError } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs } from './Shape';

/** A trade id Binance must send (number or numeric string). */
function tradeId(v: unknown, what: string): bigint {
  const id = count(v, what);
  if (id === null) throw new VenueDataError(`${what}: missing`);
  return id;
}

/**
 * Binance: a rolling 24h ticker; klines carry quote volume, trade count and the taker-buy volumes.
 * The maker side is the other side of the taker: `vol_buy_*` (maker was buyer) = total − taker buy,
 * `vol_sell_*` = taker buy. Klines give no per-side trade counts: those come from `aggTrades`
 * (from `startTime`, inclusive, 1000 a page), each `{p, q, f, l, T, m}`: the fills `f`…`l` of one
 * taker order at one price and time; `m` (the buyer was the maker) means the taker sold.
 */
export const binance: ExchangeAdapter = {
  code: 'binance',
  name: 'Binance',
  baseUrl: 'https://api.binance.com',
  quotes: ['USDT', 'BTC'],
  minIntervalMs: 200,
  maxCandles: 1000,
  tickerPath: (symbol) => `/api/v3/ticker/24hr?symbol=${symbol}`,
  parseTicker(body) {
    const t = obj(body, 'binance ticker');
    return ticker({
      open: price(t.openPrice, 'binance open'),
      high: dec(t.highPrice, 'binance high'),
      low: dec(t.lowPrice, 'binance low'),
      last: price(t.lastPrice, 'binance last'),
      change: dec(t.priceChangePercent, 'binance change'),
      vwap: dec(t.weightedAvgPrice, 'binance vwap'),
      n_trades: count(t.count, 'binance count'),
      volume_base: dec(t.volume, 'binance volume'),
      volume_quote: dec(t.quoteVolume, 'binance quote volume'),
      timestamp: new Date(timeMs(t.closeTime, 'ms', 'binance close time')),
    });
  },
  candlesPath: (symbol, sinceMs) => `/api/v3/klines?symbol=${symbol}&interval=1m&startTime=${sinceMs}&limit=1000`,
  parseCandles(body) {
    return ascending(
      arr(body, 'binance klines').map((x) => {
        const r = row(x, 11, 'binance kline');
        const [volBase, volQuote] = [dec(r[5], 'binance volume'), dec(r[7], 'binance quote volume')];
        const [takerBase, takerQuote] = [dec(r[9], 'binance taker base'), dec(r[10], 'binance taker quote')];
        return candle({
          time: timeMs(r[0], 'ms', 'binance time'),
          open: price(r[1], 'binance open'),
          high: price(r[2], 'binance high'),
          low: price(r[3], 'binance low'),
          close: price(r[4], 'binance close'),
          n_trades: count(r[8], 'binance trades'),
          vol_base: volBase,
          vol_quote: volQuote,
          vol_buy_base: sub(volBase, takerBase),
          vol_buy_quote: sub(volQuote, takerQuote),
          vol_sell_base: takerBase,
          vol_sell_quote: takerQuote,
        });
      }),
    );
  },
  trades: {
    path: (symbol, afterMs) => `/api/v3/aggTrades?symbol=${symbol}&startTime=${afterMs + 1}&limit=1000`,
    pageSize: 1000,
    parse(body) {
      const trades = arr(body, 'binance aggTrades').map((x) => {
        const t = obj(x, 'binance aggTrade');
        if (typeof t.m !== 'boolean') throw new VenueDataError(`binance aggTrade m: '${String(t.m)}' is not a boolean`);
        const [first, last] = [tradeId(t.f, 'binance first trade id'), tradeId(t.l, 'binance last trade id')];
        if (last < first) throw new VenueDataError(`binance aggTrade: last trade id ${last} before first ${first}`);
        return {
          time: timeMs(t.T, 'ms', 'binance trade time'),
          price: price(t.p, 'binance trade price'),
          volume: dec(t.q, 'binance trade quantity'),
          takerSide: t.m ? ('sell' as const) : ('buy' as const),
          count: last - first + 1n,
        };
      });
      return trades.sort((a, b) => a.time - b.time);
    },
  },
};
