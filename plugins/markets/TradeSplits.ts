import { mul, sum } from './Decimals';
import { CandleRecord, TradeRecord } from './Records';

// Why: venue candles carry no per-side trade counts (and most no buy/sell volumes); a venue's trade
// list does, and TzPro's OHLCV columns count them by the market maker's side.

const MINUTE = 60_000;

type SplitColumn = 'n_buy' | 'n_sell' | 'vol_buy_base' | 'vol_buy_quote' | 'vol_sell_base' | 'vol_sell_quote';
type Split = Pick<CandleRecord, SplitColumn>;

/**
 * The candles with their buy/sell splits from the trades of their minute. A taker sell met a maker
 * buyer (`n_buy`, `vol_buy_*`), a taker buy a maker seller (`n_sell`, `vol_sell_*`); quote volumes are
 * Σ price × volume. Only minutes wholly before `completeUntil` (the trade list is complete up to it)
 * whose trade count equals the candle's own `n_trades` get splits, and only in the columns the candle
 * does not already have from the venue (Binance's klines carry the volumes): the others keep null.
 */
export function withTradeSplits(
  candles: readonly CandleRecord[],
  trades: readonly TradeRecord[],
  completeUntil: number,
): CandleRecord[] {
  const byMinute = new Map<number, TradeRecord[]>();
  for (const t of trades) {
    const minute = Math.floor(t.time / MINUTE) * MINUTE;
    const list = byMinute.get(minute);
    if (list) list.push(t);
    else byMinute.set(minute, [t]);
  }
  return candles.map((c) => {
    const mine = byMinute.get(c.time) ?? [];
    const covered = c.time + MINUTE <= completeUntil;
    if (!covered || c.n_trades === null || tradeCount(mine) !== c.n_trades) return c;
    const s = split(mine);
    return {
      ...c,
      n_buy: c.n_buy ?? s.n_buy,
      n_sell: c.n_sell ?? s.n_sell,
      vol_buy_base: c.vol_buy_base ?? s.vol_buy_base,
      vol_buy_quote: c.vol_buy_quote ?? s.vol_buy_quote,
      vol_sell_base: c.vol_sell_base ?? s.vol_sell_base,
      vol_sell_quote: c.vol_sell_quote ?? s.vol_sell_quote,
    };
  });
}

function tradeCount(trades: readonly TradeRecord[]): bigint {
  return trades.reduce((n, t) => n + t.count, 0n);
}

function split(trades: readonly TradeRecord[]): Split {
  const makerBuys = trades.filter((t) => t.takerSide === 'sell');
  const makerSells = trades.filter((t) => t.takerSide === 'buy');
  const quote = (ts: readonly TradeRecord[]) => sum(ts.map((t) => mul(t.price, t.volume)!));
  return {
    n_buy: tradeCount(makerBuys),
    n_sell: tradeCount(makerSells),
    vol_buy_base: sum(makerBuys.map((t) => t.volume)),
    vol_buy_quote: quote(makerBuys),
    vol_sell_base: sum(makerSells.map((t) => t.volume)),
    vol_sell_quote: quote(makerSells),
  };
}
