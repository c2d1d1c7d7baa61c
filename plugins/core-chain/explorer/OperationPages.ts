import type { Knex } from 'knex';
import { EXPLORER_LIST_PROFILE, parseTableRequest } from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { ExplorerArgs, OPERATION_SWITCHES } from './ExplorerArgs';
import { applyListRequest } from './ListPage';
import { OperationLoader } from './OperationLoader';

export interface OperationListOptions {
  /** Conditions of the list itself (the block, the account, the contract). */
  scope: (q: Knex.QueryBuilder) => void;
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
  ) {}

  async list(query: Record<string, string | string[] | undefined>, options: OperationListOptions): Promise<Record<string, unknown>[]> {
    const args = new ExplorerArgs(query, [...OPERATION_SWITCHES, ...(options.heightBounds ? ['since', 'block'] : [])]);
    const rows = this.loader.ops;
    const request = parseTableRequest(rows.table, args.rest, EXPLORER_LIST_PROFILE);
    const explicitOrder = typeof query.order === 'string' && query.order !== '';
    const order = explicitOrder ? request.order : (options.defaultOrder ?? 'asc');
    const q = rows.query();
    options.scope(q);
    const since = args.get('since');
    if (since !== undefined) q.where('height', '>', await this.blocks.heightParam('since', since));
    const upTo = args.get('block');
    if (upTo !== undefined) q.where('height', '<=', await this.blocks.heightParam('block', upTo));
    applyListRequest(q, request, order);
    return this.loader.objects(await rows.read(q), args.operationOptions());
  }
}
