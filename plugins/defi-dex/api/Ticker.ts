import { rfc3339, ZERO_TIME } from '../../../framework';
import { bps, decimal, unitPrice, units, type UsdPrices } from '../../../framework/defi';
import type { PoolInfo } from './PoolBook';
import type { LastTrade, Trades } from './TradeSeries';

export const DAY_MS = 86_400_000;

/**
 * The SDK's defi.DexTicker over the rolling 24 hours before `now` (open_time = now − 24h, close_time =
 * now), `window` being its trades as one bucket (none without trades). Prices are price_net of trades
 * (one A in B, 18 decimals). open = the first trade in the window, else the last one before it;
 * high/low over the window's trades (the open price when there are none); last price, quantity (quote
 * amount, quote decimals) and time of the latest trade ever; volumes and the weighted average price
 * (Σquote/Σbase) over the window; change = last − open, in bps of open. ask_price is the pool's
 * marginal price now (what the next tiny buy pays before fees).
 */
export async function ticker(
  pool: PoolInfo,
  window: readonly Trades[],
  last: LastTrade | undefined,
  now: number,
  usd: UsdPrices,
): Promise<Record<string, unknown>> {
  const [da, db] = [pool.decimals('a'), pool.decimals('b')];
  // Without trades in the window the latest trade is the last one before it.
  const open = window[0]?.open ?? last?.close ?? 0n;
  const day = window[0] ?? { n: 0, high: open, low: open, base: 0n, quote: 0n };
  const lastPrice = last?.close ?? 0n;
  const priceUsd = await pool.priceUsd(usd);
  const liquidity = await pool.value(usd, Object.fromEntries(pool.legs.map((l) => [l, pool.supply(l)])));
  return {
    id: Number(pool.row.row_id),
    pair: pool.row.pair,
    pool: pool.address,
    name: pool.row.name,
    entity: pool.row.entity,
    price_change: decimal(lastPrice - open),
    price_change_bps: decimal(bps(lastPrice - open, open), 2),
    ask_price: decimal(pool.price),
    weighted_avg_price: decimal(unitPrice(day.base, da, day.quote, db)),
    last_price: decimal(lastPrice),
    last_qty: decimal(units(last?.quote ?? 0n, db), db),
    last_trade_time: last ? rfc3339(last.time) : ZERO_TIME,
    base_volume: decimal(units(day.base, da), da),
    quote_volume: decimal(units(day.quote, db), db),
    open_price: decimal(open),
    high_price: decimal(day.high),
    low_price: decimal(day.low),
    open_time: rfc3339(now - DAY_MS),
    close_time: rfc3339(now),
    num_trades: day.n,
    liquidity_usd: liquidity === null ? null : decimal(liquidity),
    price_usd: priceUsd === null ? null : decimal(priceUsd),
  };
}
