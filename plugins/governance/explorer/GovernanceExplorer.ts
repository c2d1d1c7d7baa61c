import { injectable } from 'tsyringe';
import {
  Catalog,
  Database,
  explorerObject,
  ExplorerArgs,
  metadataField,
  RouteRegistry,
  type QueryArgs,
} from '../../../framework';
import { GovernanceTables } from '../GovernanceTables';
import type { VoteRead } from '../tables.generated';
import { ElectionLookup } from './ElectionLookup';
import { ElectionObject } from './ElectionObject';
import { GovernanceRows } from './GovernanceRows';
import { VoteLists } from './VoteLists';

/** Where a closed election or period ends (its objects no longer change once that is final). */
const finalAt = (open: boolean, end: number | bigint | null): { height?: number } =>
  open || end === null ? {} : { height: Number(end) };

/**
 * governance's hand-written explorer routes: elections, their periods' voters and ballots (a baker's votes are declared
 * in tables.yaml).
 */
@injectable()
export class GovernanceExplorer {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  register(r: RouteRegistry): void {
    const rows = new GovernanceRows(this.db, GovernanceTables.from(this.catalog));
    const lookup = new ElectionLookup(rows);
    const elections = new ElectionObject(rows);
    const lists = new VoteLists(rows);

    explorerObject(
      r,
      '/explorer/election/:id',
      'GetElection',
      async (ctx) => {
        const meta = new ExplorerArgs(ctx.query, ['meta']).flag('meta');
        const election = await lookup.election(ctx.params.id);
        const body = await elections.build(election);
        // The accounts an election names: the proposers of its proposals.
        const proposers = meta
          ? (await rows.proposal.read(rows.proposal.query().where('election_id', Number(election.row_id)))).map(
              (p) => p.source,
            )
          : [];
        return {
          body: { ...body, ...metadataField(meta, ...proposers) },
          ...finalAt(election.is_open, election.end_height),
        };
      },
      { summary: 'an election', params: { table: 'election', columns: { id: 'row_id' } } },
    );

    const periodList = (
      path: string,
      scope: string,
      list: (period: VoteRead, query: QueryArgs) => Promise<unknown>,
    ): void =>
      explorerObject(
        r,
        `/explorer/election/:id/:stage/${path}`,
        scope,
        async (ctx) => {
          const period = await lookup.period(await lookup.election(ctx.params.id), ctx.params.stage);
          return { body: await list(period, ctx.query), ...finalAt(period.is_open, period.period_end_height) };
        },
        {
          summary: `the ${path} of a voting period`,
          params: { table: 'election', columns: { id: 'row_id' } },
          pathParams: {
            stage: {
              type: 'integer',
              enum: [1, 2, 3, 4, 5],
              description: 'voting period of the election, 1 = proposal',
            },
          },
        },
      );
    periodList('voters', 'ListVoters', (period, query) => lists.voters(period, query));
    periodList('ballots', 'ListBallots', (period, query) => lists.ballots(period, query));
  }
}
