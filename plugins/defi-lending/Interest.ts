import type { LendingRates } from './core/LendingAdapter';
import { bigOrZero } from '../../framework';

/**
 * Why: Compound-style markets (Yupana) never write interest to a position; they keep scaled figures
 * (shares, a borrow and the borrow index it was last brought to) and a market index that accrual
 * grows. The interest columns are derived from those with the contract's own formulas, here once.
 */

/** Compound-style contracts keep amounts and indexes ×10^18 (Yupana's `precision`). */
export const PRECISION = 10n ** 18n;

/**
 * What a scaled borrow grew by since the index it was last brought to: borrow × index / then − borrow (Yupana's
 * applyInterestToBorrows).
 */
export const accrued = (borrow: bigint, then: bigint, now: bigint): bigint =>
  then === 0n ? 0n : (borrow * now) / then - borrow;

/** Underlying that shares are worth (Yupana's redeem: shares × liquidity / totalSupply / precision). */
export const shareValue = (shares: bigint, r: LendingRates): bigint =>
  r.shares === 0n ? 0n : (shares * r.liquidity) / r.shares / PRECISION;

/**
 * A position's interest columns at the market's rates now: pending = what its borrow accrued since the
 * index it was brought to, earned = what its shares are worth plus what left the position minus what
 * came in (never below 0: share rounding is not a loss of interest). Left out where the position has no
 * figures. Rows as the recorder (bigints) or the API (text) hold them.
 */
export function interestAt(
  p: Readonly<Record<string, unknown>>,
  r: LendingRates,
): { interest_pending?: bigint; interest_earned?: bigint } {
  const out: { interest_pending?: bigint; interest_earned?: bigint } = {};
  if (given(p.borrow_scaled))
    out.interest_pending = accrued(bigOrZero(p.borrow_scaled), bigOrZero(p.borrow_index), r.borrowIndex) / PRECISION;
  if (given(p.shares)) {
    const earned =
      shareValue(bigOrZero(p.shares), r) +
      bigOrZero(p.withdrawn) +
      bigOrZero(p.sent) -
      bigOrZero(p.deposited) -
      bigOrZero(p.received);
    out.interest_earned = earned > 0n ? earned : 0n;
  }
  return out;
}

/**
 * Why interest is brought to the market's rates where it is read: a Compound-style market accrues on
 * nearly every call, and rewriting every position's interest each time costs O(positions) per call.
 * So the market row keeps its rates (borrow_index, supply_liquidity, share_supply) and the API applies
 * them (interestAt) to each position's scaled figures; the table keeps interest as of the position's
 * own latest change.
 */
export function marketRates(pool: Readonly<Record<string, unknown>>): LendingRates | undefined {
  if (!given(pool.borrow_index) || !given(pool.supply_liquidity) || !given(pool.share_supply)) return undefined;
  return {
    borrowIndex: bigOrZero(pool.borrow_index),
    liquidity: bigOrZero(pool.supply_liquidity),
    shares: bigOrZero(pool.share_supply),
  };
}

/** The market row's columns for its rates (marketRates reads them back). */
export const ratesColumns = (r: LendingRates | undefined) =>
  r ? { borrow_index: r.borrowIndex, supply_liquidity: r.liquidity, share_supply: r.shares } : {};

const given = (v: unknown): boolean => v !== null && v !== undefined && v !== '';
