import type { Knex } from 'knex';
import {
  applyListRequest,
  CatalogRows,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  parseTableRequest,
  type Database,
  type ExplorerRow,
  type QueryArgs,
} from '../../../framework';
import type { GovernanceTables } from '../GovernanceTables';

/**
 * Governance rows as explorer objects show values (tez numbers, RFC 3339 times), and pages of them as
 * every explorer list pages (EXPLORER_LIST_PROFILE: `limit` 20 / at most 500, `cursor` = last row_id,
 * `offset`, `order`, filters on the listed table's columns).
 */
export class GovernanceRows {
  readonly election: CatalogRows;
  readonly vote: CatalogRows;
  readonly proposal: CatalogRows;
  readonly ballot: CatalogRows;
  readonly voter: CatalogRows;
  /** core-chain's blocks. */
  private readonly blocks: CatalogRows;

  constructor(
    db: Database,
    readonly tables: GovernanceTables,
  ) {
    this.election = new CatalogRows(db, tables.election);
    this.vote = new CatalogRows(db, tables.vote);
    this.proposal = new CatalogRows(db, tables.proposal);
    this.ballot = new CatalogRows(db, tables.ballot);
    this.voter = new CatalogRows(db, tables.voter);
    this.blocks = new CatalogRows(db, tables.block, ['height', 'hash']);
  }

  /** One page of `rows` within `scope`; `order` applies when the request names none. */
  async page(
    rows: CatalogRows,
    query: QueryArgs,
    scope: (q: Knex.QueryBuilder) => void,
    order: 'asc' | 'desc' = 'asc',
  ): Promise<ExplorerRow[]> {
    const request = parseTableRequest(rows.table, new ExplorerArgs(query, []).rest, EXPLORER_LIST_PROFILE);
    const q = rows.query();
    scope(q);
    return rows.read(applyListRequest(q, request, query.order ? request.order : order));
  }

  /** Block hashes of main-chain heights (core-chain's block table). */
  async blockHashes(heights: readonly number[]): Promise<Map<number, string>> {
    const q = this.blocks.query().whereIn('height', [...new Set(heights)]);
    const orphan = this.tables.block.orphanColumn;
    if (orphan) q.where(orphan, false);
    return new Map((await this.blocks.read(q)).map((r) => [r.height as number, r.hash as string]));
  }
}
