import { bigOrZero, type TableReader } from '../../framework';
import { num, type GovernanceTables } from './GovernanceTables';
import { isPeriodKind, type PeriodKind } from './PeriodKind';
import type { Power } from './PeriodRules';

/** The last block governance saw: where an open period ends when the next one begins. */
export interface LastBlock {
  level: number;
  time: number;
  protocol: string;
}

/**
 * What the handler keeps in memory about the voting period in progress: the listings (voting power by
 * baker), who voted, which (baker, proposal) upvotes were counted, and the proposals of its election.
 * Everything can be rebuilt from the tables, which `load` does after a restart or a rollback.
 */
export class OpenPeriod {
  constructor(
    readonly votingPeriod: number,
    readonly kind: PeriodKind,
    /** Index of the election's first period: the election's key. */
    readonly electionPeriod: number,
    readonly electionId: bigint,
    readonly listings: ReadonlyMap<string, Power>,
    /** Bakers counted in the turnout. */
    readonly voted: Set<string>,
    /** `upvote(baker, proposal)` of the upvotes counted. */
    readonly upvotes: Set<string>,
    /** Hashes proposed in the election, in order of first submission. */
    readonly proposals: string[],
  ) {}

  static upvote(baker: string, proposal: string): string {
    return `${baker} ${proposal}`;
  }
}

export interface GovernanceMemory {
  last?: LastBlock;
  open?: OpenPeriod;
}

/** The committed state before `level`: the last main-chain block and the open period with its votes. */
export async function loadMemory(read: TableReader, t: GovernanceTables, level: number): Promise<GovernanceMemory> {
  const from = read;
  const blocks = from(t.block).where('height', '<', level).orderBy('height', 'desc');
  if (t.block.orphanColumn) blocks.where(t.block.orphanColumn, false);
  const block = await blocks.first('height', 'time', 'protocol');
  const last = block
    ? { level: num(block.height), time: new Date(block.time).getTime(), protocol: String(block.protocol) }
    : undefined;
  const vote = await from(t.vote)
    .where('is_open', true)
    .orderBy('voting_period', 'desc')
    .first('voting_period', 'voting_period_kind', 'election_id');
  const kind = vote ? String(t.vote.column('voting_period_kind')!.type.fromDb(vote.voting_period_kind)) : undefined;
  if (!vote || !isPeriodKind(kind)) return { last };
  const period = num(vote.voting_period);
  const electionId = bigOrZero(vote.election_id);
  // One query at a time: they share the transaction's connection.
  const election = await from(t.election).where('row_id', electionId.toString()).first('voting_period');
  const voters = await from(t.voter).where('voting_period', period).select('address', 'rolls', 'stake');
  const ballots = await from(t.ballot).where('voting_period', period).select('source', 'proposal');
  const proposals = await from(t.proposal).where('election_id', electionId.toString()).orderBy('row_id').select('hash');
  const listings = new Map<string, Power>(
    voters.map((v: Record<string, unknown>) => [
      String(v.address),
      { rolls: bigOrZero(v.rolls), stake: bigOrZero(v.stake) },
    ]),
  );
  const open = new OpenPeriod(
    period,
    kind,
    num(election?.voting_period ?? period),
    electionId,
    listings,
    new Set(ballots.map((b: Record<string, unknown>) => String(b.source))),
    new Set(ballots.map((b: Record<string, unknown>) => OpenPeriod.upvote(String(b.source), String(b.proposal)))),
    proposals.map((p: Record<string, unknown>) => String(p.hash)),
  );
  return { last, open };
}
