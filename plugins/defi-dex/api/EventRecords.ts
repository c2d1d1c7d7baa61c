import { type TextRow } from '../../../framework/defi';
import { type Leg, LEGS, PoolInfo } from './PoolBook';

const FEES = ['lp_fee', 'dev_fee', 'referral_fee', 'incentive_fee', 'burn'] as const;

/** Fields events and trades share: who, where, when (`block` is the row's height; tx_fee in mutez). */
function origin(r: TextRow): Record<string, unknown> {
  return {
    signer: r.signer,
    sender: r.sender,
    receiver: r.receiver,
    router: r.router ?? '',
    tx_hash: r.tx_hash,
    tx_fee: r.tx_fee,
  };
}

/** A dex_event row as the SDK's defi.DexEvent (legs C and D only for pools that have them). */
export function eventRecord(r: TextRow, pool: PoolInfo): Record<string, unknown> {
  const legs: Record<string, unknown> = {};
  for (const l of pool.legs) legs[`volume_${l}`] = r[`volume_${l}`] ?? '0';
  legs.volume_lp = r.volume_lp;
  for (const l of pool.legs) legs[`decimals_${l}`] = pool.decimals(l);
  legs.decimals_lp = pool.decimals('lp');
  for (const l of pool.legs) legs[`supply_${l}`] = r[`supply_${l}`] ?? '0';
  legs.supply_lp = r.supply_lp;
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    event_type: r.event_type,
    ...legs,
    value_usd: r.value_usd,
    ...origin(r),
    block: Number(r.height),
    time: r.time,
  };
}

/** The pool leg of a token index column (0 = a); null when the column is. */
const legOf = (index: string | null): Leg | null =>
  index === null ? null : (LEGS.find((_, i) => i === Number(index)) ?? null);

/**
 * A dex_trade row as the SDK's defi.DexTrade: base and quote are the two tokens traded (A and B in a two-token
 * pool; in a pool of three or four, any two); fee symbols from the fee's token.
 */
export function tradeRecord(r: TextRow, pool: PoolInfo): Record<string, unknown> {
  const base = legOf(r.base_token) ?? 'a';
  const quote = legOf(r.quote_token) ?? 'b';
  const fees: Record<string, unknown> = {};
  for (const f of FEES) {
    const leg = legOf(r[`${f}_token`]);
    fees[f] = r[f];
    fees[`${f}_bps`] = r[`${f}_bps`];
    fees[`${f}_symbol`] = leg ? pool.symbol(leg) : '';
    fees[`${f}_decimals`] = leg ? pool.decimals(leg) : 0;
  }
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    counter: Number(r.counter),
    side: r.side,
    base_volume: r.base_volume,
    base_symbol: pool.symbol(base),
    base_decimals: pool.decimals(base),
    quote_volume: r.quote_volume,
    quote_symbol: pool.symbol(quote),
    quote_decimals: pool.decimals(quote),
    ...fees,
    price_symbol: pool.symbol(quote),
    price_decimals: pool.decimals(quote),
    price_net: r.price_net,
    price_gross: r.price_gross,
    price_before: r.price_before,
    price_after: r.price_after,
    price_delta_bps: r.price_delta_bps,
    price_impact_bps: r.price_impact_bps,
    is_wash_trade: r.is_wash_trade === 'true',
    ...origin(r),
    tx_fee_symbol: 'XTZ',
    tx_fee_decimals: 6,
    block: Number(r.height),
    time: r.time,
    price_usd: r.price_usd,
    fees_usd: r.fees_usd,
    volume_usd: r.volume_usd,
  };
}
