import type { Context } from 'koa';
import type { Knex } from 'knex';
import {
  applyListRequest, Catalog, Database, ExplorerArgs, explorerObject, OBJECT_LIST_PROFILE, parseAddress, parseTableRequest, QueryArgs, QueryParamDoc, RouteDoc, RouteRegistry,
} from '../../../framework';
import { DexTable, TextRow } from '../../defi-dex/api/DexTable';
import { TokenBook } from '../../defi-dex/api/TokenBook';
import { LendBook, LendInfo } from './LendBook';
import { lendEventRecord, lendPoolRecord, lendPositionRecord } from './LendRecords';

type ToRecord = (row: TextRow, pool: LendInfo) => Record<string, unknown>;
/** Extra conditions of a list: the path's market or wallet, and `with_closed`. */
type Narrow = (q: Knex.QueryBuilder, args: ExplorerArgs, path: Record<string, string>) => void;

const POOL_PARAM: RouteDoc['params'] = { table: 'lend_pool', columns: { pool: 'pool' } };
const WALLET_PARAM: RouteDoc['params'] = { table: 'account', columns: { addr: 'address' } };
const LIST_QUERY: QueryParamDoc[] = [
  { name: 'limit', description: '0 to 10000, default 100', schema: { type: 'integer', minimum: 0, maximum: 10000 } },
  { name: 'offset', description: 'rows to skip', schema: { type: 'integer', minimum: 0 } },
  { name: 'cursor', description: 'the id of the last row seen', schema: { type: 'integer', minimum: 0 } },
  { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
];
const WITH_CLOSED: QueryParamDoc = { name: 'with_closed', description: 'include closed positions', schema: { type: 'boolean' } };

/**
 * The lending part of the TzPro API (`/v1/lend…`, `/v1/wallets/{addr}/lend_…`) over the defi-lending
 * tables: the list profile and `<field>[.op]=value` filters of framework/query, with the SDK's names
 * (`block`, `open_block`, `address`…) mapped onto the columns; records shaped as the SDK's structs.
 */
export class LendRoutes {
  private readonly pools: LendBook;
  private readonly events: DexTable;
  private readonly positions: DexTable;

  constructor(db: Database, catalog: Catalog) {
    this.pools = new LendBook(
      new DexTable(db, catalog.require('lend_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
      ]),
      new TokenBook(db, catalog),
    );
    this.events = new DexTable(db, catalog.require('lend_event'), [{ name: 'block', aliasOf: 'height' }, { name: 'address', anyOf: ['owner', 'signer', 'sender', 'receiver'] }]);
    this.positions = new DexTable(db, catalog.require('lend_position'), [
      { name: 'open_block', aliasOf: 'open_height' },
      { name: 'close_block', aliasOf: 'close_height' },
      { name: 'address', aliasOf: 'owner' },
    ]);
  }

  register(r: RouteRegistry): void {
    const openOnly: Narrow = (q, args) => {
      if (!args.flag('with_closed')) q.where('is_closed', false);
    };
    const inPool: Narrow = (q, _args, path) => q.where('pool', path.pool);
    const both = (a: Narrow, b: Narrow): Narrow => (q, args, path) => {
      a(q, args, path);
      b(q, args, path);
    };
    const byWallet = (columns: string[]): Narrow => (q, _args, path) => q.where((any) => columns.forEach((c) => any.orWhere(c, path.addr)));

    // Fixed paths before `/v1/lend/:pool`, which would match them too.
    explorerObject(r, '/v1/lend', 'ListLendingPools', async (ctx) => {
      const rows = await this.page(ctx, this.pools.pools, []);
      return { body: [...(await this.pools.withTokens(rows)).values()].map(lendPoolRecord) };
    }, { summary: 'lending pools', query: LIST_QUERY });
    this.list(r, '/v1/lend/events', 'ListLendingEvents', this.events, lendEventRecord, [], 'lending events');
    this.list(r, '/v1/lend/positions', 'ListLendingPositions', this.positions, lendPositionRecord, ['with_closed'], 'lending positions', openOnly);
    explorerObject(r, '/v1/lend/:pool', 'GetLendingPool', async (ctx) => ({ body: lendPoolRecord(await this.pools.require(ctx.params.pool)) }), { summary: 'a lending pool', params: POOL_PARAM });
    this.list(r, '/v1/lend/:pool/events', 'ListLendingPoolEvents', this.events, lendEventRecord, [], "the lending pool's events", inPool, POOL_PARAM);
    this.list(r, '/v1/lend/:pool/positions', 'ListLendingPoolPositions', this.positions, lendPositionRecord, ['with_closed'], "the lending pool's positions", both(inPool, openOnly), POOL_PARAM);
    // A wallet's events are those of its positions (owner: the borrower of a liquidation) and those it took part in.
    this.list(r, '/v1/wallets/:addr/lend_events', 'ListWalletLendingEvents', this.events, lendEventRecord, [], "the wallet's lending events", byWallet(['owner', 'signer', 'sender', 'receiver']), WALLET_PARAM);
    this.list(r, '/v1/wallets/:addr/lend_positions', 'ListWalletLendingPositions', this.positions, lendPositionRecord, ['with_closed'], "the wallet's lending positions", both(byWallet(['owner']), openOnly), WALLET_PARAM);
  }

  private list(r: RouteRegistry, path: string, scope: string, table: DexTable, toRecord: ToRecord, own: string[], summary: string, narrow?: Narrow, params?: RouteDoc['params']): void {
    explorerObject(r, path, scope, async (ctx) => {
      const rows = await this.page(ctx, table, own, narrow);
      const pools = await this.pools.infos(rows.map((row) => row.pool!));
      return { body: rows.map((row) => toRecord(row, pools.get(row.pool!) ?? LendInfo.unknown(row))) };
    }, { summary, query: [...LIST_QUERY, ...(own.includes('with_closed') ? [WITH_CLOSED] : [])], ...(params ? { params } : {}) });
  }

  private async page(ctx: Context, table: DexTable, own: readonly string[], narrow?: Narrow): Promise<TextRow[]> {
    // Path parameters first: a malformed or unknown market or address is 400/404 whatever the query.
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
