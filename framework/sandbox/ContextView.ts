import type { StoredBlock } from './BlockStore';
import { countedStake, delegateStakes, type DelegateStake } from './DelegateStake';
import type { LedgerView } from './LedgerView';
import type { SandboxChain } from './SandboxChain';
import { StakeSnapshots, type StakeDistribution } from './StakeSnapshots';

type DelegateInfo = Record<string, unknown> & {
  baking_power: string;
  total_staked: string;
  total_delegated: string;
  own_full_balance: string;
  external_staked: string;
  external_delegated: string;
  delegators: string[];
  total_unstaked_per_cycle: unknown[];
};

/** Deprecated `/context/delegates/{pkh}/…` fields that the node still serves, from the delegate object. */
const DEPRECATED_DELEGATE_FIELDS: Record<string, (d: DelegateInfo) => unknown> = {
  current_baking_power: (d) => d.baking_power,
  current_frozen_deposits: (d) => d.total_staked,
  staking_balance: (d) => String(BigInt(d.total_staked) + BigInt(d.total_delegated)),
  full_balance: (d) => d.own_full_balance,
  delegated_balance: (d) => String(BigInt(d.external_staked) + BigInt(d.external_delegated)),
  delegated_contracts: (d) => d.delegators,
  total_delegated_stake: (d) => d.external_staked,
  unstaked_frozen_deposits: (d) => d.total_unstaked_per_cycle,
  frozen_deposits_limit: () => null,
};

/**
 * Answers of the `…/context/…` and `…/helpers/*` RPCs for one block, in the Ushuaia response shapes:
 * the ledger is read as of that block (LedgerView), rights and stake from the distribution selected
 * for the block's cycle.
 */
export class ContextView {
  private readonly view: LedgerView;

  constructor(
    private readonly chain: SandboxChain,
    private readonly block: StoredBlock,
  ) {
    this.view = chain.book.view(block.level);
  }

  /** `/context/contracts/{id}` and its sub-resources; undefined → 404. */
  contract(id: string, sub: string[]): unknown {
    const account = this.view.account(id);
    const implicit = !id.startsWith('KT1');
    if (!account) {
      // An implicit account the chain never saw is simply empty; an unknown KT1 does not exist.
      if (!implicit) return undefined;
      if (sub.length === 0) return { balance: '0' };
      if (sub.length === 1 && (sub[0] === 'balance' || sub[0] === 'full_balance' || sub[0] === 'spendable')) return '0';
      return undefined;
    }
    if (sub.length === 0) {
      const out: Record<string, unknown> = { balance: String(account.balance) };
      if (account.delegate) out.delegate = account.delegate;
      if (account.script) out.script = account.script;
      if (implicit) {
        out.counter = String(account.counter);
        out.revealed = account.revealed;
      }
      return out;
    }
    if (sub.length !== 1) return undefined;
    switch (sub[0]) {
      case 'balance':
      case 'spendable':
        return String(account.balance);
      case 'full_balance':
        return String(account.balance + this.staked(id));
      case 'staked_balance':
        return String(this.staked(id));
      case 'unstaked_frozen_balance':
        return String(account.unstakeRequests.reduce((s, r) => s + r.amount, 0n));
      case 'counter':
        return implicit ? String(account.counter) : undefined;
      case 'delegate':
        return account.delegate;
      case 'manager_key':
        return implicit ? (account.revealed ? account.publicKey : null) : undefined;
      case 'script':
        return account.script;
      case 'storage':
        return account.script?.storage;
      default:
        return undefined;
    }
  }

  /** Tez an account has staked: a baker's own stake, or an external staker's share of the pool. */
  private staked(address: string): bigint {
    const baker = this.view.baker(address);
    if (baker) return baker.ownStaked + baker.edgeStaked;
    const account = this.view.account(address);
    const delegate = account?.delegate ? this.view.baker(account.delegate) : undefined;
    if (!account || !delegate || delegate.stakingDenominator === 0n) return 0n;
    return (account.stakingNumerator * delegate.sharedStaked) / delegate.stakingDenominator;
  }

  bigMapValue(id: number, scriptExpr: string): unknown {
    return this.view.bigMapValue(id, scriptExpr);
  }

  bigMapValues(id: number, offset: number, length: number | undefined): unknown {
    const map = this.view.bigMap(id);
    if (!map) return undefined;
    return map.entries.slice(offset, length === undefined ? undefined : offset + length).map(([, e]) => e.value);
  }

  delegates(): string[] {
    return this.view.bakers().map((b) => b.address);
  }

  /** `/context/delegates/{pkh}` (no field) or one of its fields, deprecated ones included. */
  delegate(pkh: string, field?: string): unknown {
    const info = this.delegateInfo(pkh);
    if (!info || field === undefined) return info;
    if (Object.hasOwn(info, field)) return info[field];
    return DEPRECATED_DELEGATE_FIELDS[field]?.(info);
  }

  /**
   * `/helpers/baking_power_distribution_for_current_cycle`: `[total, [[{delegate, consensus_pkh}, power]…]]`
   * sorted by delegate, the distribution the block's cycle draws its rights from.
   */
  bakingPowerDistribution(): unknown {
    const d = this.currentDistribution();
    const shares = [...d.shares].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    return [
      String(d.total),
      shares.map((s) => [{ delegate: s.address, consensus_pkh: s.consensusKey }, String(s.power)]),
    ];
  }

  totalBakingPower(): string {
    return String(this.currentDistribution().total);
  }

  /** Throws a RangeError (400) for levels whose rights are not drawn yet as of this block. */
  checkRightsKnown(levels: number[]): void {
    const { calendar } = this.chain;
    // At the last block of a cycle the next selection is already made, hence the cycle of the next level.
    const last = StakeSnapshots.lastKnownCycle(calendar.cycleOf(this.block.level + 1));
    for (const level of levels)
      if (calendar.cycleOf(level) > last)
        throw new RangeError(
          `rights of level ${level} (cycle ${calendar.cycleOf(level)}) are not known at level ${this.block.level}: the last known cycle is ${last}`,
        );
  }

  bakingRights(levels: number[], delegates: Set<string>, all: boolean, maxRound: number): unknown[] {
    const { book, rights } = this.chain;
    const out: unknown[] = [];
    for (const level of levels) {
      const seen = new Set<number>();
      for (let round = 0; round <= maxRound; round++) {
        const baker = rights.bakerAt(level, round);
        if (!all && seen.has(baker)) continue;
        seen.add(baker);
        const b = book.bakers[baker];
        if (delegates.size && !delegates.has(b.address)) continue;
        const entry: Record<string, unknown> = { level, delegate: b.address, round };
        const eta = this.estimatedTime(level, round);
        if (eta) entry.estimated_time = eta;
        entry.consensus_key = b.consensusKey;
        out.push(entry);
      }
    }
    return out;
  }

  attestationRights(levels: number[], delegates: Set<string>): unknown[] {
    const { book, rights } = this.chain;
    return levels.map((level) => {
      const members = rights
        .committee(level)
        .map((m) => ({ m, b: book.bakers[m.baker] }))
        .filter(({ b }) => !delegates.size || delegates.has(b.address));
      const entry: Record<string, unknown> = {
        level,
        delegates: members.map(({ m, b }) => ({
          delegate: b.address,
          first_slot: m.firstSlot,
          attesting_power: m.slots,
          consensus_key: b.consensusKey,
        })),
      };
      const eta = this.estimatedTime(level, 0);
      if (eta) entry.estimated_time = eta;
      return entry;
    });
  }

  private currentDistribution(): StakeDistribution {
    return this.chain.rights.distributionAt(this.block.level);
  }

  private delegateInfo(pkh: string): DelegateInfo | undefined {
    const b = this.view.baker(pkh);
    if (!b) return undefined;
    const { profile, calendar } = this.chain;
    const stake = delegateStakes(this.view).get(pkh) as DelegateStake;
    const power = String(countedStake(stake).power);
    const distribution = this.currentDistribution();
    const share = distribution.shares.find((s) => s.address === pkh);
    const expected = share
      ? Number((BigInt(profile.consensusCommitteeSize * profile.blocksPerCycle) * share.power) / distribution.total)
      : 0;
    const minimal = Math.floor((expected * 2) / 3);
    const ownStaked = stake.ownStaked;
    const totalStaked = ownStaked + stake.externalStaked;
    const totalDelegated = stake.ownDelegated + stake.externalDelegated;
    const stakers = stake.delegators
      .map((a) => ({ staker: a, frozen: this.staked(a) }))
      .filter((s) => s.frozen > 0n)
      .map((s) => ({ staker: s.staker, frozen_deposits: String(s.frozen) }));
    return {
      deactivated: false,
      is_forbidden: false,
      participation: {
        expected_cycle_activity: expected,
        minimal_cycle_activity: minimal,
        missed_slots: b.cycleMissedSlots,
        missed_levels: 0,
        remaining_allowed_missed_slots: Math.max(0, expected - minimal - b.cycleMissedSlots),
        expected_attesting_rewards: '0',
      },
      grace_period: calendar.cycleOf(this.block.level) + 3,
      active_staking_parameters: {
        limit_of_staking_over_baking_millionth: 9_000_000,
        edge_of_baking_over_staking_billionth: 100_000_000,
      },
      pending_staking_parameters: [],
      baking_power: power,
      total_staked: String(totalStaked),
      total_delegated: String(totalDelegated),
      min_delegated_in_current_cycle: { amount: String(totalDelegated), level: calendar.levelInfo(this.block.level) },
      own_full_balance: String(stake.ownDelegated + ownStaked),
      own_staked: String(ownStaked),
      own_delegated: String(stake.ownDelegated),
      external_staked: String(stake.externalStaked),
      external_delegated: String(stake.externalDelegated),
      total_unstaked_per_cycle: [...stake.unstakedPerCycle]
        .sort(([a], [b]) => a - b)
        .map(([cycle, deposit]) => ({ cycle, deposit: String(deposit) })),
      denunciations: [],
      estimated_shared_pending_slashed_amount: '0',
      staking_denominator: String(b.stakingDenominator),
      current_voting_power: power,
      voting_power: power,
      voting_info: { voting_power: power, remaining_proposals: 20 },
      consensus_key: { active: { pkh: b.consensusKey, pk: b.consensusPk }, pendings: [] },
      companion_key: { active: null, pendings: [] },
      stakers: ownStaked > 0n ? [{ staker: pkh, frozen_deposits: String(ownStaked) }, ...stakers] : stakers,
      delegators: [pkh, ...stake.delegators],
    };
  }

  /** Expected timestamp of a level after this block (none for levels at or before it, as the node does). */
  private estimatedTime(level: number, round: number): string | undefined {
    const block = this.block;
    if (level <= block.level) return undefined;
    const { calendar } = this.chain;
    const seconds =
      Date.parse(block.timestamp) / 1000 +
      (level - block.level - 1) * calendar.secondsToNext(0) +
      calendar.secondsToNext(round);
    return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  }
}
