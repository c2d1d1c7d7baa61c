import { BlockStore, type StoredBlock } from './BlockStore';
import type { VotingPeriodKind } from './ChainCalendar';
import { countedStake, delegateStakes } from './DelegateStake';
import { proposalOf } from './operations/VotingFactory';
import { protocolConstants } from './ProtocolConstants';
import type { SandboxChain } from './SandboxChain';

/** Participation moving average, quorum and supermajority are in hundredths of a percent (8000 = 80 %). */
const HUNDRED_PERCENT = 10_000n;
const EMA_WEIGHT_OLD = 8_000n;
const EMA_WEIGHT_NEW = 2_000n;

interface Listing {
  pkh: string;
  power: bigint;
}

/** The voting operations of one period up to a block, in chain order. */
interface PeriodVotes {
  ballots: Array<{ pkh: string; ballot: string }>;
  /** Proposals and their supporters, in order of first submission. */
  supporters: Map<string, Set<string>>;
}

const byPkh = (a: { pkh: string }, b: { pkh: string }): number => (a.pkh < b.pkh ? -1 : a.pkh > b.pkh ? 1 : 0);

/**
 * Answers of `…/votes/*` for one block, in the Ushuaia shapes, with the node's semantics: the votes
 * state is the one after the block was applied, so at the last block of a period listings, ballots,
 * proposals, quorum and current proposal already belong to the next period (`current_period` still
 * names the block's own period). Listings are the bakers' stake (frozen + delegated, limits applied)
 * as of the block that ended the previous period, or of the bootstrap block for period 0; the quorum
 * follows Octez's participation EMA (starting at `quorum_max`), updated after every exploration and
 * promotion period. The sandbox never fails a period (see docs/sandbox.md), so the current proposal
 * is the round's proposal from exploration on.
 */
export class VotesView {
  private readonly periodLength: number;

  constructor(
    private readonly chain: SandboxChain,
    private readonly block: StoredBlock,
  ) {
    this.periodLength = chain.calendar.votingPeriodLength;
  }

  /** `…/votes/{path}`; undefined → 404. */
  answer(path: readonly string[]): unknown {
    if (path.length !== 1) return undefined;
    const calendar = this.chain.calendar;
    switch (path[0]) {
      case 'current_period':
        return calendar.votingPeriodInfo(this.block.level);
      case 'successor_period':
        return calendar.votingPeriodInfo(this.block.level + 1);
      case 'listings':
        return this.listings(this.statePeriod).map((l) => ({ pkh: l.pkh, voting_power: String(l.power) }));
      case 'total_voting_power':
        return String(this.total(this.listings(this.statePeriod)));
      case 'ballot_list':
        return [...this.currentVotes().ballots].sort(byPkh);
      case 'ballots':
        return this.ballotSums();
      case 'proposals':
        return this.proposalPowers();
      case 'current_proposal':
        return this.kind(this.statePeriod) === 'proposal' ? null : proposalOf(this.chain.seed, this.statePeriod);
      case 'current_quorum':
        return this.quorum(this.statePeriod);
      default:
        return undefined;
    }
  }

  /** The period whose votes the context holds after this block: the next one after a period's last block. */
  private get statePeriod(): number {
    const info = this.chain.calendar.votingPeriodInfo(this.block.level);
    return info.voting_period.index + (info.remaining === 0 ? 1 : 0);
  }

  private firstLevel(period: number): number {
    return period * this.periodLength + 1;
  }

  private kind(period: number): VotingPeriodKind {
    return this.chain.calendar.votingPeriodInfo(this.firstLevel(period)).voting_period.kind;
  }

  /** Bakers with voting rights in a period and their voting power, sorted by address. */
  private listings(period: number): Listing[] {
    const view = this.chain.book.view(Math.max(1, this.firstLevel(period) - 1));
    const out: Listing[] = [];
    for (const stake of delegateStakes(view).values()) {
      const counted = countedStake(stake);
      if (counted.power > 0n) out.push({ pkh: stake.address, power: counted.frozen + counted.delegated });
    }
    return out.sort(byPkh);
  }

  private total(listings: readonly Listing[]): bigint {
    return listings.reduce((s, l) => s + l.power, 0n);
  }

  /** Votes of the state period so far: none right after a period ended. */
  private currentVotes(): PeriodVotes {
    const period = this.statePeriod;
    return period === this.chain.calendar.votingPeriodInfo(this.block.level).voting_period.index
      ? this.votes(period, this.block.level)
      : { ballots: [], supporters: new Map() };
  }

  private votes(period: number, upTo: number): PeriodVotes {
    const out: PeriodVotes = { ballots: [], supporters: new Map() };
    for (let level = this.firstLevel(period); level <= upTo; level++) {
      const stored = this.chain.at(level);
      if (!stored) break;
      for (const group of BlockStore.unpack(stored.body).operations[0] as Array<{
        contents: Array<Record<string, unknown>>;
      }>)
        for (const op of group.contents) {
          const pkh = op.source as string;
          if (op.kind === 'ballot') out.ballots.push({ pkh, ballot: op.ballot as string });
          if (op.kind !== 'proposals') continue;
          for (const hash of op.proposals as string[]) {
            const supporters = out.supporters.get(hash) ?? new Set<string>();
            supporters.add(pkh);
            out.supporters.set(hash, supporters);
          }
        }
    }
    return out;
  }

  private ballotSums(): Record<'yay' | 'nay' | 'pass', string> {
    const power = new Map(this.listings(this.statePeriod).map((l) => [l.pkh, l.power]));
    const sums = { yay: 0n, nay: 0n, pass: 0n };
    for (const b of this.currentVotes().ballots) sums[b.ballot as keyof typeof sums] += power.get(b.pkh) ?? 0n;
    return { yay: String(sums.yay), nay: String(sums.nay), pass: String(sums.pass) };
  }

  private proposalPowers(): Array<[string, string]> {
    const power = new Map(this.listings(this.statePeriod).map((l) => [l.pkh, l.power]));
    return [...this.currentVotes().supporters]
      .map(([hash, pkhs]): [string, string] => [
        hash,
        String([...pkhs].reduce((s, pkh) => s + (power.get(pkh) ?? 0n), 0n)),
      ])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** `quorum_min + ema × (quorum_max − quorum_min)`, with the EMA as it stands when `period` begins. */
  private quorum(period: number): number {
    const constants = protocolConstants(this.chain.profile);
    const min = BigInt(constants.quorum_min as number);
    const max = BigInt(constants.quorum_max as number);
    let ema = max;
    for (let p = 0; p < period; p++) {
      const kind = this.kind(p);
      if (kind !== 'exploration' && kind !== 'promotion') continue;
      const listings = this.listings(p);
      const total = this.total(listings);
      const power = new Map(listings.map((l) => [l.pkh, l.power]));
      const cast = this.votes(p, this.firstLevel(p + 1) - 1).ballots.reduce((s, b) => s + (power.get(b.pkh) ?? 0n), 0n);
      const participation = total === 0n ? 0n : (cast * HUNDRED_PERCENT) / total;
      ema = (EMA_WEIGHT_OLD * ema + EMA_WEIGHT_NEW * participation) / HUNDRED_PERCENT;
    }
    return Number(min + (ema * (max - min)) / HUNDRED_PERCENT);
  }
}
