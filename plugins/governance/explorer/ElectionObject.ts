import { type ExplorerRow, timeOrZero } from '../../../framework';
import type { ElectionRead, ProposalRead } from '../tables.generated';
import { PERIOD_KINDS } from '../PeriodKind';
import type { GovernanceRows } from './GovernanceRows';

/** Vote columns a period object shows as they are (the heights are renamed to `period_*_block`). */
const PERIOD_FIELDS = [
  'voting_period',
  'voting_period_kind',
  'period_start_time',
  'period_end_time',
  'eligible_rolls',
  'eligible_stake',
  'eligible_voters',
  'quorum_pct',
  'quorum_rolls',
  'quorum_stake',
  'turnout_rolls',
  'turnout_stake',
  'turnout_voters',
  'turnout_pct',
  'turnout_ema',
  'yay_rolls',
  'yay_stake',
  'yay_voters',
  'nay_rolls',
  'nay_stake',
  'nay_voters',
  'pass_rolls',
  'pass_stake',
  'pass_voters',
  'is_open',
  'is_failed',
  'is_draw',
  'no_proposal',
  'no_quorum',
  'no_majority',
] as const;
const ELECTION_FIELDS = [
  'num_periods',
  'num_proposals',
  'start_time',
  'end_time',
  'start_height',
  'end_height',
  'is_empty',
  'is_open',
  'is_failed',
  'no_quorum',
  'no_majority',
  'no_proposal',
] as const;

const pick = <R extends object>(row: R, fields: readonly (keyof R & string)[]): ExplorerRow =>
  Object.fromEntries(fields.map((f) => [f, row[f]]));

/**
 * `/explorer/election/{id}`: the election with one object per period it reached, keyed by period kind
 * (null for periods not reached). A period lists its proposals: all of the election's in the proposal
 * period, the one voted on (with zero counts) in the later ones.
 */
export class ElectionObject {
  constructor(private readonly rows: GovernanceRows) {}

  async build(election: ElectionRead): Promise<ExplorerRow> {
    const { vote, proposal } = this.rows;
    const id = Number(election.row_id);
    const votes = await vote.read(vote.query().where('election_id', id).orderBy('voting_period'));
    const proposals = await proposal.read(proposal.query().where('election_id', id).orderBy('row_id'));
    const blocks = await this.rows.blockHashes(proposals.map((p) => p.height));
    const proposalObject = (p: ProposalRead, counted: boolean): ExplorerRow => ({
      hash: p.hash,
      source: p.source,
      block_hash: blocks.get(Number(p.height)) ?? null,
      op_hash: p.op,
      height: p.height,
      time: p.time,
      rolls: counted ? p.rolls : 0,
      stake: counted ? p.stake : 0,
      voters: counted ? p.voters : 0,
    });
    const periods = PERIOD_KINDS.map((kind) => {
      const v = votes.find((x) => x.voting_period_kind === kind);
      if (!v) return [kind, null];
      const listed =
        kind === 'proposal'
          ? proposals.map((p) => proposalObject(p, true))
          : proposals.filter((p) => p.row_id === v.proposal_id).map((p) => proposalObject(p, false));
      const times = {
        period_start_time: timeOrZero(v.period_start_time),
        period_end_time: timeOrZero(v.period_end_time),
      };
      return [
        kind,
        {
          ...pick(v, PERIOD_FIELDS),
          ...times,
          period_start_block: v.period_start_height,
          period_end_block: v.period_end_height,
          proposals: listed,
        },
      ];
    });
    // Only an election that passed its promotion without an adoption period ran the pre-Edo four-period schedule.
    const fourPeriods =
      election.is_open === false && election.is_failed === false && election.last_voting_period === 'promotion';
    return {
      election_id: id,
      max_periods: fourPeriods ? 4 : PERIOD_KINDS.length,
      ...pick(election, ELECTION_FIELDS),
      // An open election has no end yet: Go's zero time, as the SDK decodes a time.Time.
      end_time: timeOrZero(election.end_time),
      voting_period: election.last_voting_period,
      ...Object.fromEntries(periods),
    };
  }
}
