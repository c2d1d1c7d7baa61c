import type { Context } from 'koa';
import type { Knex } from 'knex';
import {
  applyListRequest, Catalog, Database, ExplorerArgs, explorerObject, OBJECT_LIST_PROFILE, parseAddress, parseTableRequest, QueryArgs, QueryParamDoc, RouteDoc, RouteRegistry,
} from '../../../framework';
import { DexTable, TextRow } from '../../defi-dex/api/DexTable';
import { TokenBook } from '../../defi-dex/api/TokenBook';
import { FarmBook, FarmInfo } from './FarmBook';
import { farmEventRecord, farmPositionRecord, farmRecord } from './FarmRecords';

type ToRecord = (row: TextRow, farm: FarmInfo) => Record<string, unknown>;
/** Extra conditions of a list: the path's farm or wallet, and `with_closed`. */
type Narrow = (q: Knex.QueryBuilder, args: ExplorerArgs, path: Record<string, string>) => void;

const FARM_PARAM: RouteDoc['params'] = { table: 'farm_pool', columns: { pool: 'pool' } };
const WALLET_PARAM: RouteDoc['params'] = { table: 'account', columns: { addr: 'address' } };
const LIST_QUERY: QueryParamDoc[] = [
  { name: 'limit', description: '0 to 10000, default 100', schema: { type: 'integer', minimum: 0, maximum: 10000 } },
  { name: 'offset', description: 'rows to skip', schema: { type: 'integer', minimum: 0 } },
  { name: 'cursor', description: 'the id of the last row seen', schema: { type: 'integer', minimum: 0 } },
  { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
];
const WITH_CLOSED: QueryParamDoc = { name: 'with_closed', description: 'include closed positions', schema: { type: 'boolean' } };

/**
 * The farm part of the TzPro API (`/v1/farm…`, `/v1/wallets/{addr}/farm_…`) over the defi-farm
 * tables: the list profile and `<field>[.op]=value` filters of framework/query, with the SDK's names
 * (`block`, `open_block`, `address`…) mapped onto the columns; records shaped as the SDK's structs.
 */
export class FarmRoutes {
  private readonly farms: FarmBook;
  private readonly events: DexTable;
  private readonly positions: DexTable;

  constructor(db: Database, catalog: Catalog) {
    this.farms = new FarmBook(
      new DexTable(db, catalog.require('farm_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
      ]),
      new TokenBook(db, catalog),
    );
    this.events = new DexTable(db, catalog.require('farm_event'), [{ name: 'block', aliasOf: 'height' }, { name: 'address', anyOf: ['signer', 'sender', 'receiver'] }]);
    this.positions = new DexTable(db, catalog.require('farm_position'), [
      { name: 'open_block', aliasOf: 'open_height' },
      { name: 'close_block', aliasOf: 'close_height' },
      { name: 'address', aliasOf: 'owner' },
    ]);
  }

  register(r: RouteRegistry): void {
    const openOnly: Narrow = (q, args) => {
      if (!args.flag('with_closed')) q.where('is_closed', false);
    };
    const inFarm: Narrow = (q, _args, path) => q.where('pool', path.pool);
    const both = (a: Narrow, b: Narrow): Narrow => (q, args, path) => {
      a(q, args, path);
      b(q, args, path);
    };
    const byWallet = (columns: string[]): Narrow => (q, _args, path) => q.where((any) => columns.forEach((c) => any.orWhere(c, path.addr)));

    // Fixed paths before `/v1/farm/:pool`, which would match them too.
    explorerObject(r, '/v1/farm', 'ListFarms', async (ctx) => {
      const rows = await this.page(ctx, this.farms.farms, []);
      return { body: [...(await this.farms.withTokens(rows)).values()].map(farmRecord) };
    }, { summary: 'staking farms', query: LIST_QUERY });
    this.list(r, '/v1/farm/events', 'ListFarmEvents', this.events, farmEventRecord, [], 'farm events');
    this.list(r, '/v1/farm/positions', 'ListFarmPositions', this.positions, farmPositionRecord, ['with_closed'], 'farm positions', openOnly);
    explorerObject(r, '/v1/farm/:pool', 'GetFarm', async (ctx) => ({ body: farmRecord(await this.farms.require(ctx.params.pool)) }), { summary: 'a staking farm', params: FARM_PARAM });
    this.list(r, '/v1/farm/:pool/events', 'ListFarmPoolEvents', this.events, farmEventRecord, [], "the farm's events", inFarm, FARM_PARAM);
    this.list(r, '/v1/farm/:pool/positions', 'ListFarmPoolPositions', this.positions, farmPositionRecord, ['with_closed'], "the farm's positions", both(inFarm, openOnly), FARM_PARAM);
    this.list(r, '/v1/wallets/:addr/farm_events', 'ListWalletFarmEvents', this.events, farmEventRecord, [], "the wallet's farm events", byWallet(['signer', 'sender', 'receiver']), WALLET_PARAM);
    this.list(r, '/v1/wallets/:addr/farm_positions', 'ListWalletFarmPositions', this.positions, farmPositionRecord, ['with_closed'], "the wallet's farm positions", both(byWallet(['owner']), openOnly), WALLET_PARAM);
  }

  private list(r: RouteRegistry, path: string, scope: string, table: DexTable, toRecord: ToRecord, own: string[], summary: string, narrow?: Narrow, params?: RouteDoc['params']): void {
    explorerObject(r, path, scope, async (ctx) => {
      const rows = await this.page(ctx, table, own, narrow);
      const farms = await this.farms.infos(rows.map((row) => row.pool!));
      return { body: rows.map((row) => toRecord(row, farms.get(row.pool!) ?? FarmInfo.unknown(row))) };
    }, { summary, query: [...LIST_QUERY, ...(own.includes('with_closed') ? [WITH_CLOSED] : [])], ...(params ? { params } : {}) });
  }

  private async page(ctx: Context, table: DexTable, own: readonly string[], narrow?: Narrow): Promise<TextRow[]> {
    // Path parameters first: a malformed or unknown farm or address is 400/404 whatever the query.
    const path: Record<string, string> = {};
    if (ctx.params.pool !== undefined) path.pool = (await this.farms.require(ctx.params.pool)).address;
    if (ctx.params.addr !== undefined) path.addr = parseAddress(ctx.params.addr);
    const args = new ExplorerArgs(ctx.query as QueryArgs, own);
    const request = parseTableRequest(table.filters, args.rest, OBJECT_LIST_PROFILE);
    if (request.limit === 0) return [];
    const q = table.query();
    narrow?.(q, args, path);
    return table.read(applyListRequest(q, request));
  }
}
