import type { Entity } from '../../../framework';
import type { LendingRates } from './LendingAdapter';

/**
 * Why: Compound-style markets (Yupana) never write interest to a position; they keep scaled figures
 * (shares, a borrow and the borrow index it was last brought to) and a market index that accrual
 * grows. The interest columns are derived from those with the contract's own formulas, here once.
 */

/** Compound-style contracts keep amounts and indexes ×10^18 (Yupana's `precision`). */
export const PRECISION = 10n ** 18n;

const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);

/** What a scaled borrow grew by since the index it was last brought to: borrow × index / then − borrow (Yupana's applyInterestToBorrows). */
export const accrued = (borrow: bigint, then: bigint, now: bigint): bigint => (then === 0n ? 0n : (borrow * now) / then - borrow);

/** Underlying that shares are worth (Yupana's redeem: shares × liquidity / totalSupply / precision). */
export const shareValue = (shares: bigint, r: LendingRates): bigint => (r.shares === 0n ? 0n : (shares * r.liquidity) / r.shares / PRECISION);

/**
 * A position's interest columns at the market's rates now: pending = what its borrow accrued since the
 * index it was brought to, earned = what its shares are worth plus what left the position minus what
 * came in (never below 0: share rounding is not a loss of interest). Null where the position has no figures.
 */
export function interestAt(p: Entity, r: LendingRates): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.borrow_scaled !== null && p.borrow_scaled !== undefined) out.interest_pending = accrued(big(p.borrow_scaled), big(p.borrow_index), r.borrowIndex) / PRECISION;
  if (p.shares !== null && p.shares !== undefined) {
    const earned = shareValue(big(p.shares), r) + big(p.withdrawn) + big(p.sent) - big(p.deposited) - big(p.received);
    out.interest_earned = earned > 0n ? earned : 0n;
  }
  return out;
}
