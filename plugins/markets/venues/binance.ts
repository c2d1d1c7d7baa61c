import { count, dec, price, sub } from '../Decimals';
import { ExchangeAdapter, ascending, candle, ticker } from './Adapter';
import { arr, obj, row, timeMs } from './Shape';

/**
 * Binance: a rolling 24h ticker; klines carry quote volume, trade count and the taker-buy volumes.
 * The maker side is the other side of the taker: `vol_buy_*` (maker was buyer) = total − taker buy,
 * `vol_sell_*` = taker buy. Trade counts per side are not given.
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
};
