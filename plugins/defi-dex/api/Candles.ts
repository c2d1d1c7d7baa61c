import { Collapse, rfc3339 } from '../../../framework';
import { decimal, unitPrice, units } from '../../../framework/defi';
import type { PoolInfo } from './PoolBook';
import type { Bucket } from './TradeSeries';

/**
 * The 13 elements of a DEX candle, in order (docs/defi-dex-api.md): start time, end time (RFC3339,
 * the end exclusive), number of trades, number of buys, then open, high, low, close, vwap (prices of
 * one A in B, 18 decimals), base volume, quote volume, base volume of buys, quote volume of buys (whole
 * tokens, the token's decimals).
 */
export const CANDLE_COLUMNS = [
  'time',
  'end_time',
  'n_trades',
  'n_buys',
  'open',
  'high',
  'low',
  'close',
  'vwap',
  'vol_base',
  'vol_quote',
  'vol_buy_base',
  'vol_buy_quote',
] as const;

export function candle(b: Bucket, collapse: Collapse, pool: PoolInfo): unknown[] {
  const [da, db] = [pool.decimals('a'), pool.decimals('b')];
  return [
    rfc3339(b.start),
    rfc3339(collapse.add(b.start, 1)),
    b.n,
    b.buys,
    decimal(b.open),
    decimal(b.high),
    decimal(b.low),
    decimal(b.close),
    decimal(unitPrice(b.base, da, b.quote, db)),
    decimal(units(b.base, da), da),
    decimal(units(b.quote, db), db),
    decimal(units(b.buyBase, da), da),
    decimal(units(b.buyQuote, db), db),
  ];
}
