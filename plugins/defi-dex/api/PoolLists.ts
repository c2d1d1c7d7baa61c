import type { Context } from 'koa';
import type { Knex } from 'knex';
import { applyListRequest, ExplorerArgs, explorerObject, OBJECT_LIST_PROFILE, parseAddress, parseTableRequest, QueryArgs, QueryParamDoc, RouteDoc, RouteRegistry } from '../../../framework';
import type { UsdQuotes } from '../core/UsdQuotes';
import type { DexTable, TextRow } from './DexTable';
import { UsdPrices } from './UsdPrices';

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

/** A record of a row with its pool's info, USD values at the answer's prices. */
export type RowRecord<Info> = (row: TextRow, pool: Info, usd: UsdPrices) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * List routes shared by the DeFi areas that page one table of records per route (farms, lending):
 * path parameters checked first, the object-list profile, `<field>[.op]=value` filters, records
 * built with their pool's info. USD values come from `quotes` when given (as the DEX routes), else
 * they are null.
 */
export class PoolLists<Info> {
  constructor(
    private readonly pools: PoolDirectory<Info>,
    private readonly quotes?: UsdQuotes,
  ) {}

  /** Prices for one answer, read at the time of the request. */
  usd(): UsdPrices {
    return new UsdPrices(this.quotes, new Date());
  }

  list(r: RouteRegistry, path: string, scope: string, table: DexTable, toRecord: RowRecord<Info>, own: string[], summary: string, narrow?: ListNarrow, params?: RouteDoc['params']): void {
    explorerObject(r, path, scope, async (ctx) => {
      const rows = await this.page(ctx, table, own, narrow);
      const pools = await this.pools.infos(rows.map((row) => row.pool!));
      const usd = this.usd();
      return { body: await Promise.all(rows.map((row) => toRecord(row, pools.get(row.pool!) ?? this.pools.unknown(row), usd))) };
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
