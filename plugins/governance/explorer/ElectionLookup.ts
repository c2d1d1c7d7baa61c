import { ApiError, parseSequenceId, ValueError } from '../../../framework';
import { PERIOD_KINDS } from '../PeriodKind';
import type { ElectionRead, VoteRead } from '../tables.generated';
import type { GovernanceRows } from './GovernanceRows';

/**
 * Resolves the ids of `/explorer/election/{id}[/{stage}]`: `head` (the latest election), an election
 * number (its row_id) or a protocol hash (the latest election it was proposed in); `{stage}` is the
 * 1-based period of the election. Malformed ids are 400/1301, unknown ones 404/1305.
 */
export class ElectionLookup {
  constructor(private readonly rows: GovernanceRows) {}

  async election(raw: string): Promise<ElectionRead> {
    const { election, proposal } = this.rows;
    const q = election.query();
    if (/^(head|\d+)$/.test(raw)) {
      const id = parseSequenceId(raw, 'election id');
      if (id === 'head') q.orderBy('voting_period', 'desc');
      else q.where('row_id', id);
    } else {
      const hash = this.protocolHash(raw);
      q.whereIn('row_id', proposal.query().clearSelect().where('hash', hash).select('election_id')).orderBy(
        'voting_period',
        'desc',
      );
    }
    const row = await election.first(q);
    if (!row) throw ApiError.notFound('no election');
    return row;
  }

  /** The period row of stage `raw` (1 = proposal … 5 = adoption) of an election. */
  async period(election: ElectionRead, raw: string): Promise<VoteRead> {
    if (!/^\d$/.test(raw) || Number(raw) < 1 || Number(raw) > PERIOD_KINDS.length)
      throw ApiError.malformedId(`invalid voting period identifier '${raw}'`);
    const vote = this.rows.vote;
    const row = await vote.first(
      vote
        .query()
        .where({
          election_id: Number(election.row_id),
          voting_period_kind: vote.table.column('voting_period_kind')!.type.parse(PERIOD_KINDS[Number(raw) - 1]),
        }),
    );
    if (!row) throw ApiError.notFound('voting period does not exist');
    return row;
  }

  private protocolHash(raw: string): string {
    try {
      return this.rows.tables.proposal.column('hash')!.type.parse(raw) as string;
    } catch (e) {
      if (e instanceof ValueError) throw ApiError.malformedId(`invalid election id '${raw}'`);
      throw e;
    }
  }
}
