import {
  bigOrZero,
  type Entity,
  type IndexContext,
  type Logger,
  type NormalizedBlock,
  type NormalizedOperation,
} from '../../framework';
import { GovernanceBook } from './GovernanceBook';
import { num } from './GovernanceTables';
import { OpenPeriod, type GovernanceMemory } from './OpenPeriod';
import { readPeriodFacts } from './PeriodFacts';
import { isBallotKind, periodSucceeded, stageOf, type PeriodKind } from './PeriodKind';
import {
  addPower,
  ballotFailures,
  counted,
  NO_POWER,
  percentOf,
  proposalFailures,
  shareOf,
  type Power,
} from './PeriodRules';
import { tables, type VoteRow } from './tables.generated';

type Ballot = 'yay' | 'nay' | 'pass';
/** A vote row's power and voter count under one prefix (turnout or a ballot). */
type Counts<P extends string> = { [K in `${P}_rolls` | `${P}_stake`]: bigint } & { [K in `${P}_voters`]: number };
const isBallot = (v: string): v is Ballot => v === 'yay' || v === 'nay' || v === 'pass';

/** What a period's numbers say about why it failed (all false when they are unknown or it did not fail). */
interface Failure {
  no_proposal: boolean;
  is_draw: boolean;
  no_quorum: boolean;
  no_majority: boolean;
}
const NO_FAILURE: Failure = { no_proposal: false, is_draw: false, no_quorum: false, no_majority: false };

/** The `{prefix}_rolls` / `{prefix}_stake` pair of a row (plain `rolls` / `stake` for an empty prefix). */
const powerOf = (row: Entity, prefix: string): Power => {
  const p = prefix ? `${prefix}_` : '';
  return { rolls: bigOrZero(row[`${p}rolls`]), stake: bigOrZero(row[`${p}stake`]) };
};
const opId = (level: number, opN: number): bigint => (BigInt(level) << 16n) | BigInt(opN);

/**
 * Governance's work on one block (with a voting period in its metadata): at the first block of a
 * period it closes the previous one (success read off the chain, failure reasons off the tallies) and
 * opens the new one with the node's listings and quorum; then it counts the block's proposal upvotes
 * and ballots into the proposal, vote and election rows and appends their ballot rows.
 */
export class BlockVoting {
  private readonly book: GovernanceBook;
  private readonly time: Date;

  constructor(
    private readonly block: NormalizedBlock & { votingPeriod: number },
    private readonly kind: PeriodKind,
    private readonly ctx: IndexContext,
    private readonly memory: GovernanceMemory,
    private readonly log: Logger,
  ) {
    this.book = new GovernanceBook(ctx);
    this.time = new Date(block.time);
  }

  async run(): Promise<void> {
    const period = this.block.votingPeriod;
    if (this.memory.open?.votingPeriod !== period) {
      const next = await this.beginPeriod(period);
      if (!next) return;
      this.memory.open = next;
    }
    const open = this.memory.open;
    for (const op of this.block.operations) {
      if (op.status !== 'applied' || op.sender === undefined) continue;
      if (op.type === 'proposal') await this.upvote(open, op, op.sender);
      if (op.type === 'ballot') await this.ballot(open, op, op.sender);
    }
  }

  /** Closes the open period and opens `period` at this block; undefined when the block cannot start it. */
  private async beginPeriod(period: number): Promise<OpenPeriod | undefined> {
    const electionPeriod = period - stageOf(this.kind);
    const seen = await this.book.vote(period);
    const election = await this.book.election(electionPeriod);
    if (seen || (election && election.is_open !== true)) {
      // Period indexes only grow along a chain: this block belongs to another chain (or a gap went back).
      this.log.warn(
        { block: this.block.level, period },
        'governance: voting period already indexed and closed; block skipped',
      );
      return undefined;
    }
    const previous = this.memory.open;
    if (previous) await this.close(previous, period);
    return this.open(period, electionPeriod, election, previous);
  }

  private async close(open: OpenPeriod, nextPeriod: number): Promise<void> {
    const vote = await this.required(this.book.vote(open.votingPeriod), `vote ${open.votingPeriod}`);
    const last = this.memory.last ?? {
      level: this.block.level - 1,
      time: this.block.time,
      protocol: this.block.protocol,
    };
    // Over a gap in the indexed chain the successor of the period is unknown, and so is its outcome.
    const failed =
      nextPeriod === open.votingPeriod + 1 &&
      !periodSucceeded(open.kind, this.kind, last.protocol !== this.block.protocol);
    const failure = {
      ...(failed ? await this.failure(open, vote) : NO_FAILURE),
      no_proposal: open.kind === 'proposal' && open.proposals.length === 0,
    };
    const end = { end_height: last.level, end_time: new Date(last.time) };
    this.book.updateVote(vote, {
      period_end_height: end.end_height,
      period_end_time: end.end_time,
      is_open: false,
      is_failed: failed,
      ...failure,
    });
    if (nextPeriod - stageOf(this.kind) === open.electionPeriod) return;
    const election = await this.required(this.book.election(open.electionPeriod), `election ${open.electionPeriod}`);
    this.book.updateElection(election, {
      ...end,
      is_open: false,
      is_failed: failed,
      no_quorum: failure.no_quorum,
      no_majority: failure.no_majority,
      no_proposal: failed && open.kind === 'proposal',
    });
  }

  /** Why a period failed, as far as the listings tell (nothing without a node; a proposal-less period is just that). */
  private async failure(open: OpenPeriod, vote: Entity): Promise<Failure> {
    const eligible = powerOf(vote, 'eligible');
    const of = (row: Entity, prefix: string): bigint => counted(powerOf(row, prefix), eligible);
    const total = of(vote, 'eligible');
    const quorum = num(vote.quorum_pct);
    if (total === 0n) return NO_FAILURE;
    if (open.kind === 'proposal') {
      if (open.proposals.length === 0) return NO_FAILURE;
      const supports: bigint[] = [];
      for (const hash of open.proposals)
        supports.push(of(await this.required(this.book.proposal(open.electionId, hash), `proposal ${hash}`), ''));
      const { isDraw, noQuorum } = proposalFailures(supports, total, quorum);
      return { ...NO_FAILURE, is_draw: isDraw, no_quorum: noQuorum };
    }
    if (!isBallotKind(open.kind)) return NO_FAILURE;
    const { noQuorum, noMajority } = ballotFailures(
      of(vote, 'yay'),
      of(vote, 'nay'),
      of(vote, 'turnout'),
      total,
      quorum,
    );
    return { ...NO_FAILURE, no_quorum: noQuorum, no_majority: noMajority };
  }

  private async open(
    period: number,
    electionPeriod: number,
    known: Entity | undefined,
    previous: OpenPeriod | undefined,
  ): Promise<OpenPeriod> {
    const block = this.block;
    const facts = await readPeriodFacts(this.ctx, this.kind);
    const stage = { num_periods: stageOf(this.kind) + 1, last_voting_period: this.kind };
    let election = known;
    if (election) this.book.updateElection(election, stage);
    else {
      // A new election, or one whose start lies before the indexed chain (recorded from here).
      election = this.book.insertElection(electionPeriod, {
        ...stage,
        proposal_id: null,
        proposal: null,
        num_proposals: 0,
        start_time: this.time,
        end_time: null,
        start_height: block.level,
        end_height: null,
        is_empty: this.kind === 'proposal',
        is_open: true,
        is_failed: false,
        no_quorum: false,
        no_majority: false,
        no_proposal: false,
      });
    }
    const electionId = election.row_id;
    const accounts = this.ctx.entities('account', 'address');
    await accounts.preload(facts.listings.keys());
    for (const [address, power] of facts.listings) {
      const account = await accounts.get(address);
      this.ctx.append(tables.voter, {
        election_id: electionId,
        voting_period: period,
        height: block.level,
        account_id: account?.row_id ?? null,
        ...power,
        address,
      });
    }
    const eligible = facts.eligible;
    this.book.insertVote(period, {
      election_id: electionId,
      proposal_id: election.proposal_id == null ? null : bigOrZero(election.proposal_id),
      proposal: election.proposal == null ? null : String(election.proposal),
      voting_period_kind: this.kind,
      period_start_time: this.time,
      period_end_time: facts.plannedEndTime ?? null,
      period_start_height: block.level,
      period_end_height: facts.plannedEndHeight ?? null,
      eligible_rolls: eligible.rolls,
      eligible_stake: eligible.stake,
      eligible_voters: facts.listings.size,
      quorum_pct: facts.quorumPct,
      quorum_rolls: shareOf(eligible.rolls, facts.quorumPct),
      quorum_stake: shareOf(eligible.stake, facts.quorumPct),
      turnout_ema: facts.turnoutEma,
      ...this.counts(NO_POWER, 0, 'turnout'),
      turnout_pct: 0,
      ...this.counts(NO_POWER, 0, 'yay'),
      ...this.counts(NO_POWER, 0, 'nay'),
      ...this.counts(NO_POWER, 0, 'pass'),
      is_open: true,
      is_failed: false,
      ...NO_FAILURE,
    });
    const proposals = previous?.electionId === electionId ? previous.proposals : [];
    const open = new OpenPeriod(
      period,
      this.kind,
      electionPeriod,
      electionId,
      facts.listings,
      new Set(),
      new Set(),
      proposals,
    );
    const winner = facts.currentProposal ?? (proposals.length === 1 ? proposals[0] : undefined);
    if (this.kind !== 'proposal' && election.proposal_id === null && winner !== undefined)
      await this.settleWinner(open, election, winner);
    return open;
  }

  /** The proposal an election votes on, once known: on the election and on every period row of it so far. */
  private async settleWinner(open: OpenPeriod, election: Entity, hash: string): Promise<void> {
    const proposal = await this.book.proposal(open.electionId, hash);
    if (!proposal) return;
    const link = { proposal_id: proposal.row_id, proposal: hash };
    this.book.updateElection(election, link);
    for (let period = open.electionPeriod; period <= open.votingPeriod; period++) {
      const vote = await this.book.vote(period);
      if (vote && vote.proposal_id === null) this.book.updateVote(vote, link);
    }
  }

  /** A `proposals` operation: new proposals of the election, one counted upvote per baker and proposal. */
  private async upvote(open: OpenPeriod, op: NormalizedOperation, baker: string): Promise<void> {
    if (open.kind !== 'proposal') return this.misplaced(op, open);
    const hashes = [
      ...new Set(
        String(op.data ?? '')
          .split(',')
          .filter(Boolean),
      ),
    ];
    const power = open.listings.get(baker) ?? NO_POWER;
    const source = await this.sourceId(baker);
    const election = await this.required(this.book.election(open.electionPeriod), `election ${open.electionPeriod}`);
    for (const hash of hashes) {
      let proposal = await this.book.proposal(open.electionId, hash);
      if (!proposal) {
        proposal = this.book.insertProposal(open.electionId, hash, {
          height: this.block.level,
          time: this.time,
          source_id: source,
          op_id: opId(this.block.level, op.opN),
          voting_period: open.votingPeriod,
          rolls: 0n,
          stake: 0n,
          voters: 0,
          source: baker,
          op: op.hash,
        });
        open.proposals.push(hash);
        this.book.updateElection(election, { num_proposals: num(election.num_proposals) + 1, is_empty: false });
      }
      const key = OpenPeriod.upvote(baker, hash);
      if (open.upvotes.has(key)) continue;
      open.upvotes.add(key);
      this.book.updateProposal(proposal, {
        rolls: bigOrZero(proposal.rolls) + power.rolls,
        stake: bigOrZero(proposal.stake) + power.stake,
        voters: num(proposal.voters) + 1,
      });
      this.appendBallot(open, op, baker, source, power, 'yay', hash, proposal.row_id);
    }
    if (!open.voted.has(baker)) await this.count(open, baker, power);
  }

  /** A `ballot` in an exploration or promotion period: once per baker. */
  private async ballot(open: OpenPeriod, op: NormalizedOperation, baker: string): Promise<void> {
    if (!isBallotKind(open.kind)) return this.misplaced(op, open);
    const [hash, ballot] = String(op.data ?? '').split(',');
    if (open.voted.has(baker) || !isBallot(ballot)) return;
    const power = open.listings.get(baker) ?? NO_POWER;
    const vote = await this.count(open, baker, power, ballot);
    if (vote.proposal_id === null) {
      const election = await this.required(this.book.election(open.electionPeriod), `election ${open.electionPeriod}`);
      await this.settleWinner(open, election, hash);
    }
    const proposalId = vote.proposal_id === null ? null : bigOrZero(vote.proposal_id);
    this.appendBallot(open, op, baker, await this.sourceId(baker), power, ballot, hash, proposalId);
  }

  /** Adds a baker's power to the period's turnout (and to its ballot's tally). */
  private async count(open: OpenPeriod, baker: string, power: Power, ballot?: Ballot): Promise<Entity> {
    open.voted.add(baker);
    const vote = await this.required(this.book.vote(open.votingPeriod), `vote ${open.votingPeriod}`);
    const turnout = addPower(powerOf(vote, 'turnout'), power);
    const eligible = powerOf(vote, 'eligible');
    const patch: Partial<VoteRow> = {
      ...this.counts(turnout, num(vote.turnout_voters) + 1, 'turnout'),
      turnout_pct: percentOf(counted(turnout, eligible), counted(eligible, eligible)),
    };
    if (ballot)
      Object.assign(
        patch,
        this.counts(addPower(powerOf(vote, ballot), power), num(vote[`${ballot}_voters`]) + 1, ballot),
      );
    this.book.updateVote(vote, patch);
    return vote;
  }

  private counts<P extends 'turnout' | Ballot>(power: Power, voters: number, prefix: P): Counts<P> {
    // A computed key widens to string: the mapped type restores the three column names.
    return {
      [`${prefix}_rolls`]: power.rolls,
      [`${prefix}_stake`]: power.stake,
      [`${prefix}_voters`]: voters,
    } as Counts<P>;
  }

  private appendBallot(
    open: OpenPeriod,
    op: NormalizedOperation,
    baker: string,
    sourceId: bigint,
    power: Power,
    ballot: Ballot,
    proposal: string,
    proposalId: bigint | null,
  ): void {
    this.ctx.append(tables.ballot, {
      election_id: open.electionId,
      proposal_id: proposalId,
      voting_period: open.votingPeriod,
      voting_period_kind: open.kind,
      height: this.block.level,
      time: this.time,
      source_id: sourceId,
      op_id: opId(this.block.level, op.opN),
      rolls: power.rolls,
      stake: power.stake,
      ballot,
      source: baker,
      op: op.hash,
      proposal,
    });
  }

  /** The baker's account row id; core-chain tracks every operation's sender in the same block. */
  private async sourceId(address: string): Promise<bigint> {
    const account = await this.ctx.entities('account', 'address').get(address);
    if (!account)
      throw new Error(
        `governance: no account row for ${address} at block ${this.block.level} (core-chain must run first)`,
      );
    return account.row_id;
  }

  private misplaced(op: NormalizedOperation, open: OpenPeriod): void {
    this.log.warn(
      { block: this.block.level, op: op.hash, type: op.type, period: open.votingPeriod, kind: open.kind },
      'governance: voting operation outside its period kind; not counted',
    );
  }

  private async required(entity: Promise<Entity | undefined>, what: string): Promise<Entity> {
    const found = await entity;
    if (!found) throw new Error(`governance: ${what} is missing at block ${this.block.level}`);
    return found;
  }
}
