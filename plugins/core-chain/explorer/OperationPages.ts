import type { Knex } from 'knex';
import {
  applyListRequest,
  Database,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  lookUpKeys,
  parseTableRequest,
} from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { OperationLoader } from './OperationLoader';
import { OPERATION_SWITCHES, operationOptions } from './OperationObject';

export interface OperationListOptions {
  /**
   * Conditions of the list itself (the block, the account, the contract). Several mean "any of
   * them" (an account in any role): each is paged on its own (role, row_id) index and the pages merged.
   * `order`: the list's (a scope on such an index reads it in order: whereIndexedEquality).
   */
  scopes: Array<(q: Knex.QueryBuilder, order: 'asc' | 'desc') => void>;
  /** Order when the request names none (account histories are newest first). */
  defaultOrder?: 'asc' | 'desc';
  /** Whether `since` (height above) and `block` (height up to) bound the list. */
  heightBounds?: boolean;
}

/**
 * Explorer lists of operation objects with the paging rules of every explorer list: `limit` 20 by
 * default and at most 500, `cursor` = the row_id of the last object seen, `offset`, `order` by
 * row_id; any op column filters (`type.in=…`, `sender=…`) parsed exactly as `/tables/op` parses them.
 */
export class OperationPages {
  constructor(
    private readonly loader: OperationLoader,
    private readonly blocks: BlockLookup,
    private readonly db: Database,
  ) {}

  async list(
    query: Record<string, string | string[] | undefined>,
    options: OperationListOptions,
  ): Promise<Record<string, unknown>[]> {
    const args = new ExplorerArgs(query, [...OPERATION_SWITCHES, ...(options.heightBounds ? ['since', 'block'] : [])]);
    const rows = this.loader.ops;
    const request = await lookUpKeys(this.db.reader, parseTableRequest(rows.table, args.rest, EXPLORER_LIST_PROFILE));
    const explicitOrder = typeof query.order === 'string' && query.order !== '';
    const order = explicitOrder ? request.order : (options.defaultOrder ?? 'asc');
    const since = args.get('since');
    const sinceHeight = since === undefined ? undefined : await this.blocks.heightParam('since', since);
    const upTo = args.get('block');
    const upToHeight = upTo === undefined ? undefined : await this.blocks.heightParam('block', upTo);
    const bounded = (q: Knex.QueryBuilder): Knex.QueryBuilder => {
      if (sinceHeight !== undefined) q.where('height', '>', sinceHeight);
      if (upToHeight !== undefined) q.where('height', '<=', upToHeight);
      return q;
    };
    const q = rows.query();
    if (options.scopes.length === 1) {
      options.scopes[0](q, order);
      applyListRequest(bounded(q), request, order);
    } else {
      // An OR across roles cannot walk one index in row_id order; the union of per-role pages can.
      const knex = this.db.reader;
      const table = rows.table;
      const pages = options.scopes.map((scope) => {
        const page = knex.withSchema(table.schema).from(table.storage).select('row_id');
        scope(page, order);
        return applyListRequest(bounded(page), { ...request, limit: request.limit + request.offset, offset: 0 }, order);
      });
      const ids = knex
        .select('row_id')
        .from(knex.union(pages, true).as('pages'))
        .orderBy('row_id', order)
        .limit(request.limit)
        .offset(request.offset);
      q.whereIn('row_id', ids).orderBy('row_id', order);
    }
    return this.loader.objects(await rows.read(q), operationOptions(args));
  }
}
