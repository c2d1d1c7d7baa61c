import type { LedgerView } from './LedgerView';

/** Stake limits and weights of the rights formula (Quebec+ values; reported by `/context/constants`). */
export const STAKE_CONSTANTS = {
  /** External stake counted as staked is at most this multiple of the baker's own stake. */
  globalLimitOfStakingOverBaking: 9n,
  /** Delegated tez counted for rights are at most this multiple of the baker's own stake. */
  limitOfDelegationOverBaking: 9n,
  /** Delegated tez weigh 1/3 of staked tez in the baking power. */
  edgeOfStakingOverDelegation: 3n,
  minimalStake: 6_000_000_000n,
  minimalFrozenStake: 600_000_000n,
  /** Rights of cycle c come from the stake at the end of cycle c − consensus_rights_delay − 1. */
  consensusRightsDelay: 2,
} as const;

/** A delegate's stake as the `/context/delegates/{pkh}` fields describe it (mutez). */
export interface DelegateStake {
  readonly address: string;
  /** Frozen stake the baker owns (`baker_own_stake` + `baker_edge`). */
  ownStaked: bigint;
  /** Frozen stake of external stakers (the shared `{delegate}` pool). */
  externalStaked: bigint;
  /** The baker's spendable balance and its own unstake requests. */
  ownDelegated: bigint;
  /** Delegators' spendable balances and every other unstake request made from this baker. */
  externalDelegated: bigint;
  /** Accounts other than the baker that delegate to it, in creation order. */
  delegators: string[];
  /** Unstaked tez by the cycle of the request, all stakers of the baker included. */
  unstakedPerCycle: Map<number, bigint>;
}

/** The stake that counts for rights once the protocol's limits are applied, and the baking power it gives. */
export interface CountedStake {
  frozen: bigint;
  delegated: bigint;
  /** `frozen + delegated / edge_of_staking_over_delegation`; 0 below the minimal stakes (no rights). */
  power: bigint;
}

/**
 * Stake of every baker, in one pass over the accounts of a ledger view. The same function serves the
 * cycle-end selection (live ledger) and the delegate RPCs (ledger as of the block asked), so what an
 * indexer reads at the end of a cycle is exactly what the rights were drawn from.
 */
export function delegateStakes(view: LedgerView): Map<string, DelegateStake> {
  const out = new Map<string, DelegateStake>();
  for (const b of view.bakers())
    out.set(b.address, {
      address: b.address,
      ownStaked: b.ownStaked + b.edgeStaked,
      externalStaked: b.sharedStaked,
      ownDelegated: 0n,
      externalDelegated: 0n,
      delegators: [],
      unstakedPerCycle: new Map(),
    });
  for (const address of view.addresses()) {
    const a = view.account(address);
    if (!a) continue;
    for (const r of a.unstakeRequests) {
      const s = out.get(r.delegate);
      if (!s) continue;
      if (address === r.delegate) s.ownDelegated += r.amount;
      else s.externalDelegated += r.amount;
      s.unstakedPerCycle.set(r.cycle, (s.unstakedPerCycle.get(r.cycle) ?? 0n) + r.amount);
    }
    const s = a.delegate === undefined ? undefined : out.get(a.delegate);
    if (!s) continue;
    if (address === s.address) s.ownDelegated += a.balance;
    else {
      s.externalDelegated += a.balance;
      s.delegators.push(address);
    }
  }
  return out;
}

/**
 * Applies the limits: external stake above `limit × own stake` counts as delegated (overstaking), and
 * delegated tez above `limit × own stake` do not count at all (overdelegation). Bakers under the
 * minimal frozen stake or minimal total stake get no baking power.
 */
export function countedStake(s: DelegateStake): CountedStake {
  const c = STAKE_CONSTANTS;
  const allowedExternal =
    s.externalStaked < s.ownStaked * c.globalLimitOfStakingOverBaking
      ? s.externalStaked
      : s.ownStaked * c.globalLimitOfStakingOverBaking;
  const frozen = s.ownStaked + allowedExternal;
  const overstaked = s.externalStaked - allowedExternal;
  const uncapped = s.ownDelegated + s.externalDelegated + overstaked;
  const cap = s.ownStaked * c.limitOfDelegationOverBaking;
  const delegated = uncapped < cap ? uncapped : cap;
  const eligible = s.ownStaked >= c.minimalFrozenStake && frozen + delegated >= c.minimalStake;
  return { frozen, delegated, power: eligible ? frozen + delegated / c.edgeOfStakingOverDelegation : 0n };
}
