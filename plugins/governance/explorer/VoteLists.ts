import type { ExplorerRow, QueryArgs } from '../../../framework';
import type { BallotRead, VoteRead } from '../tables.generated';
import type { GovernanceRows } from './GovernanceRows';

/** A ballot row as an explorer object (proposal upvotes are ballots `yay` of proposal periods). */
function ballotObject(b: BallotRead): ExplorerRow {
  const {
    row_id,
    height,
    time,
    election_id,
    voting_period,
    voting_period_kind,
    proposal,
    op,
    ballot,
    rolls,
    stake,
    source,
  } = b;
  return {
    row_id,
    height,
    time,
    election_id,
    voting_period,
    voting_period_kind,
    proposal,
    op,
    ballot,
    rolls,
    stake,
    sender: source,
  };
}

/** The explorer's lists of governance rows: a period's voters and ballots. */
export class VoteLists {
  constructor(private readonly rows: GovernanceRows) {}

  /** The bakers listed for a period, whether (and how) each voted; filters and paging on voter columns. */
  async voters(period: VoteRead, query: QueryArgs): Promise<ExplorerRow[]> {
    const { voter, ballot } = this.rows;
    const page = await this.rows.page(voter, query, (q) => q.where('voting_period', Number(period.voting_period)));
    const cast = page.length
      ? await ballot.read(
          ballot
            .query()
            .where('voting_period', Number(period.voting_period))
            .whereIn(
              'source',
              page.map((v) => v.address),
            )
            .orderBy('row_id'),
        )
      : [];
    const isProposalPeriod = period.voting_period_kind === 'proposal';
    return page.map((v) => {
      const own = cast.filter((b) => b.source === v.address);
      // `ballot` and `proposals` always (empty when none): the TzPro SDK's Voter reads both.
      const ballot = own.length > 0 && !isProposalPeriod ? own[0].ballot : '';
      const proposals = isProposalPeriod ? own.map((b) => b.proposal) : [];
      return {
        row_id: v.row_id,
        address: v.address,
        rolls: v.rolls,
        stake: v.stake,
        ballot,
        has_voted: own.length > 0,
        proposals,
      };
    });
  }

  /** The ballots (or, in a proposal period, upvotes) of a period. */
  async ballots(period: VoteRead, query: QueryArgs): Promise<ExplorerRow[]> {
    return (
      await this.rows.page(this.rows.ballot, query, (q) => q.where('voting_period', Number(period.voting_period)))
    ).map(ballotObject);
  }
}
