import { mutezToTez, member } from '../../../framework';

/** What a baker holds now (mutez, account table) and the limits it set, as far as they are known. */
export interface BakerHoldings {
  /** Its own stake: Oxford+ own staked tez, Ithaca–Nairobi frozen deposits. */
  own: bigint;
  /** Its external stakers' pool (Oxford+). */
  external: bigint;
  /** Its own tez that are not staked: spendable, unstake requests, rollup bonds. */
  liquid: bigint;
  /** Its delegators' tez that are not staked: spendable, unstake requests, rollup bonds. */
  delegated: bigint;
  /** `limit_of_staking_over_baking_millionth` the node reported at the last cycle end; null when unknown. */
  stakingLimit: bigint | null;
  /** Ithaca–Nairobi: its last `set_deposits_limit` (null: none or removed). */
  depositsLimit: bigint | null;
}

export interface Capacity {
  staking_capacity: number | null;
  delegation_capacity: number | null;
  is_over_staked: boolean | null;
  is_over_delegated: boolean | null;
  /** No more delegated tez would count for its rights. */
  is_full: boolean | null;
}

/** The explorer's figures, and the delegated tez the baker can still take (mutez; null when unknown). */
export interface CapacityResult {
  figures: Capacity;
  room: bigint | null;
}

const UNKNOWN: CapacityResult = {
  figures: {
    staking_capacity: null,
    delegation_capacity: null,
    is_over_staked: null,
    is_over_delegated: null,
    is_full: null,
  },
  room: null,
};
const tez = (mutez: bigint): number => Number(mutezToTez(mutez));
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** A whole-number constant, or undefined when the protocol has no such constant. */
function constant(c: Record<string, unknown>, ...path: string[]): bigint | undefined {
  let v: unknown = c;
  for (const k of path) v = member(v, k);
  return typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)) ? BigInt(v) : undefined;
}

/**
 * How much stake and delegation a baker can take before the protocol stops counting it, by the rules of
 * the protocol whose constants are given (docs/baking.md, "Capacities"):
 * - Oxford+ (`limit_of_delegation_over_baking`): external stake counts up to own stake × the lower of the
 *   baker's limit and the global limit; the rest counts as delegated; delegated tez count up to own
 *   stake × limit_of_delegation_over_baking;
 * - Ithaca–Nairobi (`frozen_deposits_percentage`): the stake counted for rights is at most the baker's
 *   full balance (or its deposits limit, when lower) × 100 / frozen_deposits_percentage; no external stake;
 * - Emmy and unknown constants: null (the inputs, rolls and per-cycle deposits, are not indexed).
 */
export function bakerCapacity(constants: Record<string, unknown> | undefined, h: BakerHoldings): CapacityResult {
  if (!constants) return UNKNOWN;
  const delegationLimit = constant(constants, 'limit_of_delegation_over_baking');
  if (delegationLimit !== undefined) {
    const global =
      constant(constants, 'global_limit_of_staking_over_baking') ??
      constant(constants, 'adaptive_issuance', 'global_limit_of_staking_over_baking');
    const stakingCapacity =
      h.stakingLimit === null || global === undefined
        ? null
        : (h.own * min(h.stakingLimit, global * 1_000_000n)) / 1_000_000n;
    const delegationCapacity = h.own * delegationLimit;
    // Overstaked tez count as delegated: unknown when the staking capacity is, unless nobody stakes.
    const overstaked =
      h.external === 0n
        ? 0n
        : stakingCapacity === null
          ? null
          : h.external > stakingCapacity
            ? h.external - stakingCapacity
            : 0n;
    const delegated = overstaked === null ? null : h.liquid + h.delegated + overstaked;
    return {
      figures: {
        staking_capacity: stakingCapacity === null ? null : tez(stakingCapacity),
        delegation_capacity: tez(delegationCapacity),
        is_over_staked: stakingCapacity === null ? null : h.external > stakingCapacity,
        is_over_delegated: delegated === null ? null : delegated > delegationCapacity,
        is_full: delegated === null ? null : delegated >= delegationCapacity,
      },
      room: delegated === null ? null : delegationCapacity - delegated,
    };
  }
  const percentage = constant(constants, 'frozen_deposits_percentage');
  if (percentage !== undefined && percentage > 0n) {
    const full = h.own + h.liquid;
    const capacity = ((h.depositsLimit === null ? full : min(full, h.depositsLimit)) * 100n) / percentage;
    const staking = full + h.delegated;
    return {
      figures: {
        staking_capacity: 0,
        delegation_capacity: tez(capacity),
        is_over_staked: false,
        is_over_delegated: staking > capacity,
        is_full: staking >= capacity,
      },
      room: capacity - staking,
    };
  }
  return UNKNOWN;
}
