import type { Knex } from 'knex';
import {
  applyListRequest,
  CatalogRows,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  parseTableRequest,
  type Database,
  type QueryArgs,
} from '../../../framework';
import { coreChainTables } from '../../core-chain';
import type { GovernanceTables } from '../GovernanceTables';
import { tables as handles } from '../tables.generated';

/**
 * Governance rows as explorer objects show values (tez numbers, RFC 3339 times), and pages of them as
 * every explorer list pages (EXPLORER_LIST_PROFILE: `limit` 20 / at most 500, `cursor` = last row_id,
 * `offset`, `order`, filters on the listed table's columns).
 */
export class GovernanceRows {
  readonly election;
  readonly vote;
  readonly proposal;
  readonly ballot;
  readonly voter;
  /** core-chain's blocks. */
  private readonly blocks;

  constructor(
    db: Database,
    readonly tables: GovernanceTables,
  ) {
    this.election = CatalogRows.of(db, tables.election, handles.election);
    this.vote = CatalogRows.of(db, tables.vote, handles.vote);
    this.proposal = CatalogRows.of(db, tables.proposal, handles.proposal);
    this.ballot = CatalogRows.of(db, tables.ballot, handles.ballot);
    this.voter = CatalogRows.of(db, tables.voter, handles.voter);
    this.blocks = CatalogRows.of(db, tables.block, coreChainTables.block, ['height', 'hash']);
  }

  /** One page of `rows` within `scope`; `order` applies when the request names none. */
  async page<R extends object>(
    rows: CatalogRows<R>,
    query: QueryArgs,
    scope: (q: Knex.QueryBuilder) => void,
    order: 'asc' | 'desc' = 'asc',
  ): Promise<R[]> {
    const request = parseTableRequest(rows.table, new ExplorerArgs(query, []).rest, EXPLORER_LIST_PROFILE);
    const q = rows.query();
    scope(q);
    return rows.read(applyListRequest(q, request, query.order ? request.order : order));
  }

  /** Block hashes of main-chain heights (core-chain's block table). */
  async blockHashes(heights: readonly (number | bigint)[]): Promise<Map<number, string>> {
    const q = this.blocks.query().whereIn('height', [...new Set(heights.map(Number))]);
    const orphan = this.tables.block.orphanColumn;
    if (orphan) q.where(orphan, false);
    return new Map((await this.blocks.read(q)).map((r) => [Number(r.height), r.hash]));
  }
}
