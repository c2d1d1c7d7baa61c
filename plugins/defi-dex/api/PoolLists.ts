import type { Context } from 'koa';
import type { Knex } from 'knex';
import { applyListRequest, ExplorerArgs, explorerObject, OBJECT_LIST_PROFILE, parseAddress, parseTableRequest, QueryArgs, QueryParamDoc, RouteDoc, RouteRegistry } from '../../../framework';
import type { DexTable, TextRow } from './DexTable';

/** Extra conditions of a list: the path's pool or wallet, and `with_closed`. */
export type ListNarrow = (q: Knex.QueryBuilder, args: ExplorerArgs, path: Record<string, string>) => void;

export const WALLET_PARAM: RouteDoc['params'] = { table: 'account', columns: { addr: 'address' } };
export const LIST_QUERY: QueryParamDoc[] = [
  { name: 'limit', description: '0 to 10000, default 100', schema: { type: 'integer', minimum: 0, maximum: 10000 } },
  { name: 'offset', description: 'rows to skip', schema: { type: 'integer', minimum: 0 } },
  { name: 'cursor', description: 'the id of the last row seen', schema: { type: 'integer', minimum: 0 } },
  { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
];
export const WITH_CLOSED: QueryParamDoc = { name: 'with_closed', description: 'include closed positions', schema: { type: 'boolean' } };

export const openOnly: ListNarrow = (q, args) => {
  if (!args.flag('with_closed')) q.where('is_closed', false);
};
export const inPool: ListNarrow = (q, _args, path) => q.where('pool', path.pool);
export const both = (a: ListNarrow, b: ListNarrow): ListNarrow => (q, args, path) => {
  a(q, args, path);
  b(q, args, path);
};
export const byWallet = (columns: readonly string[]): ListNarrow => (q, _args, path) => q.where((any) => columns.forEach((c) => any.orWhere(c, path.addr)));

/** What the list routes need of an area's pool book. */
export interface PoolDirectory<Info> {
  /** The pool of a path (400 when malformed, 404 when unknown). */
  require(pool: string): Promise<{ address: string }>;
  infos(pools: readonly string[]): Promise<Map<string, Info>>;
  /** What a row whose pool has no pool row shows. */
  unknown(row: TextRow): Info;
}

/**
 * List routes shared by the DeFi areas that page one table of records per route (farms, lending):
 * path parameters checked first, the object-list profile, `<field>[.op]=value` filters, records
 * built with their pool's info.
 */
export class PoolLists<Info> {
  constructor(private readonly pools: PoolDirectory<Info>) {}

  list(r: RouteRegistry, path: string, scope: string, table: DexTable, toRecord: (row: TextRow, pool: Info) => Record<string, unknown>, own: string[], summary: string, narrow?: ListNarrow, params?: RouteDoc['params']): void {
    explorerObject(r, path, scope, async (ctx) => {
      const rows = await this.page(ctx, table, own, narrow);
      const pools = await this.pools.infos(rows.map((row) => row.pool!));
      return { body: rows.map((row) => toRecord(row, pools.get(row.pool!) ?? this.pools.unknown(row))) };
    }, { summary, query: [...LIST_QUERY, ...(own.includes('with_closed') ? [WITH_CLOSED] : [])], ...(params ? { params } : {}) });
  }

  async page(ctx: Context, table: DexTable, own: readonly string[], narrow?: ListNarrow): Promise<TextRow[]> {
    // Path parameters first: a malformed or unknown pool or address is 400/404 whatever the query.
    const path: Record<string, string> = {};
    if (ctx.params.pool !== undefined) path.pool = (await this.pools.require(ctx.params.pool)).address;
    if (ctx.params.addr !== undefined) path.addr = parseAddress(ctx.params.addr);
    const args = new ExplorerArgs(ctx.query as QueryArgs, own);
    const request = parseTableRequest(table.filters, args.rest, OBJECT_LIST_PROFILE);
    if (request.limit === 0) return [];
    const q = table.query();
    narrow?.(q, args, path);
    return table.read(applyListRequest(q, request));
  }
}
