import type { FarmSupply } from './core/FarmAdapter';
import { bigOrZero } from '../../framework';

type Accrual = NonNullable<FarmSupply['accrual']>;

const given = (v: unknown): boolean => v !== null && v !== undefined && v !== '';

/**
 * Why pending rewards are computed where they are read: a farm's index moves on every call, and
 * writing every staker's pending on each call costs O(stakers) per call (thousands on mainnet farms).
 * So the farm row keeps its index (reward_index, index_precision), a position its own figures as of
 * its last change, and the API brings pending to the farm's index with the contract's formula.
 */

/**
 * A staked position's pending rewards at the farm's index: MasterChef `(reward_base + stake·index) /
 * precision`, savings pools `shares·index / precision − stake` (the value above the stake deposited;
 * 0 while rounding or a loss keeps it below). Undefined for positions without stake or accounting.
 * Rows as the recorder (bigints) or the API (text, '' for null) hold them.
 */
export function pendingAt(p: Readonly<Record<string, unknown>>, accrual: Accrual): bigint | undefined {
  const stake = bigOrZero(p.stake_balance);
  if (stake === 0n) return undefined;
  if (given(p.reward_shares)) {
    const above = (bigOrZero(p.reward_shares) * accrual.index) / accrual.precision - stake;
    return above > 0n ? above : 0n;
  }
  return given(p.reward_base) ? (bigOrZero(p.reward_base) + stake * accrual.index) / accrual.precision : undefined;
}

/** The farm row's index, when its contract has one. */
export function farmAccrual(farm: Readonly<Record<string, unknown>>): Accrual | undefined {
  if (!given(farm.reward_index) || !given(farm.index_precision) || bigOrZero(farm.index_precision) === 0n)
    return undefined;
  return { index: bigOrZero(farm.reward_index), precision: bigOrZero(farm.index_precision) };
}

/**
 * A position's pending rewards now: at its farm's latest index where the formula applies, else as last written (null
 * when unknown).
 */
export function currentPending(
  p: Readonly<Record<string, unknown>>,
  farm: Readonly<Record<string, unknown>>,
): bigint | null {
  const accrual = farmAccrual(farm);
  const now = accrual && pendingAt(p, accrual);
  if (now !== undefined) return now;
  return given(p.rewards_pending) ? bigOrZero(p.rewards_pending) : null;
}
