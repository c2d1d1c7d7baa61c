import type { Baker } from './AccountBook';
import type { SandboxChain } from './SandboxChain';

/**
 * Answers of the `…/context/…` and `…/helpers/*_rights` RPCs from the chain's head state, in the
 * Ushuaia response shapes.
 */
export class ContextView {
  constructor(private readonly chain: SandboxChain) {}

  /** `/context/contracts/{id}` and its sub-resources; undefined → 404. */
  contract(id: string, sub: string[]): unknown {
    const account = this.chain.book.find(id);
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
  staked(address: string): bigint {
    const book = this.chain.book;
    const baker = book.baker(address);
    if (baker) return baker.ownStaked + baker.edgeStaked;
    const account = book.get(address);
    const delegate = account.delegate ? book.baker(account.delegate) : undefined;
    if (!delegate || delegate.stakingDenominator === 0n) return 0n;
    return (account.stakingNumerator * delegate.sharedStaked) / delegate.stakingDenominator;
  }

  bigMapValue(id: number, scriptExpr: string): unknown {
    return this.chain.book.bigMap(id)?.entries.get(scriptExpr)?.value;
  }

  bigMapValues(id: number, offset: number, length: number | undefined): unknown {
    const map = this.chain.book.bigMap(id);
    if (!map) return undefined;
    const values = [...map.entries.values()].map((e) => e.value);
    return values.slice(offset, length === undefined ? undefined : offset + length);
  }

  delegate(pkh: string): unknown {
    const book = this.chain.book;
    const b = book.baker(pkh);
    if (!b) return undefined;
    const head = this.chain.headLevel;
    const cycle = this.chain.calendar.cycleOf(head);
    const delegators = book.allAddresses().filter((a) => a !== pkh && book.get(a).delegate === pkh);
    const stakers = delegators.filter((a) => book.get(a).stakingNumerator > 0n);
    const ownDelegated = book.get(pkh).balance;
    const externalDelegated = delegators.reduce((s, a) => s + book.get(a).balance, 0n);
    const externalStaked = b.sharedStaked;
    const ownStaked = b.ownStaked + b.edgeStaked;
    const totalStaked = ownStaked + externalStaked;
    const totalDelegated = ownDelegated + externalDelegated;
    const power = String(totalStaked + totalDelegated / 3n);
    const expected = Math.round((this.chain.profile.consensusCommitteeSize * this.chain.profile.blocksPerCycle * b.weight) / this.totalWeight());
    return {
      deactivated: false,
      is_forbidden: false,
      participation: {
        expected_cycle_activity: expected,
        minimal_cycle_activity: Math.floor((expected * 2) / 3),
        missed_slots: Math.max(0, b.cycleExpectedSlots - b.cycleAttestedSlots),
        missed_levels: 0,
        remaining_allowed_missed_slots: Math.max(0, Math.floor(expected / 3) - (b.cycleExpectedSlots - b.cycleAttestedSlots)),
        expected_attesting_rewards: '0',
      },
      grace_period: cycle + 3,
      active_staking_parameters: { limit_of_staking_over_baking_millionth: 9_000_000, edge_of_baking_over_staking_billionth: 100_000_000 },
      pending_staking_parameters: [],
      baking_power: power,
      total_staked: String(totalStaked),
      total_delegated: String(totalDelegated),
      min_delegated_in_current_cycle: { amount: String(totalDelegated), level: this.chain.calendar.levelInfo(Math.max(1, head)) },
      own_full_balance: String(ownDelegated + ownStaked),
      own_staked: String(ownStaked),
      own_delegated: String(ownDelegated),
      external_staked: String(externalStaked),
      external_delegated: String(externalDelegated),
      total_unstaked_per_cycle: [],
      denunciations: [],
      estimated_shared_pending_slashed_amount: '0',
      staking_denominator: String(b.stakingDenominator),
      current_voting_power: power,
      voting_power: power,
      voting_info: { voting_power: power, remaining_proposals: 20 },
      consensus_key: { active: { pkh: b.consensusKey, pk: b.consensusPk }, pendings: [] },
      companion_key: { active: null, pendings: [] },
      stakers: stakers.map((s) => ({ staker: s, frozen_deposits: String(this.staked(s)) })),
      delegators: [pkh, ...delegators],
    };
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
        .map((m) => ({ m, b: book.bakers[m.baker] as Baker }))
        .filter(({ b }) => !delegates.size || delegates.has(b.address));
      const entry: Record<string, unknown> = {
        level,
        delegates: members.map(({ m, b }) => ({ delegate: b.address, first_slot: m.firstSlot, attesting_power: m.slots, consensus_key: b.consensusKey })),
      };
      const eta = this.estimatedTime(level, 0);
      if (eta) entry.estimated_time = eta;
      return entry;
    });
  }

  /** Expected timestamp of a future level (none for past levels, as the node does). */
  private estimatedTime(level: number, round: number): string | undefined {
    const head = this.chain.head;
    if (level <= head.level) return undefined;
    const delay = this.chain.profile.minimalBlockDelay;
    const seconds = Date.parse(head.timestamp) / 1000 + (level - head.level) * delay + round * (delay + 3);
    return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  }

  private totalWeight(): number {
    return this.chain.book.bakers.reduce((s, b) => s + b.weight, 0);
  }
}
