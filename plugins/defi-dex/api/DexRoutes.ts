import type { Context } from 'koa';
import type { Knex } from 'knex';
import {
  applyListRequest, Catalog, Database, ExplorerArgs, explorerObject, OBJECT_LIST_PROFILE, parseAddress, parseTableRequest, QueryArgs, QueryParamDoc, RouteDoc, RouteRegistry,
} from '../../../framework';
import type { UsdQuotes } from '../core/UsdQuotes';
import { LIST_QUERY, WALLET_PARAM, WITH_CLOSED } from './PoolRecords';
import { DexTable, TextRow } from './DexTable';
import { eventRecord, tradeRecord } from './EventRecords';
import { PoolBook, PoolInfo } from './PoolBook';
import { positionRecord } from './PositionRecords';
import { PoolHistory } from './PoolHistory';
import { TokenBook } from './TokenBook';
import { TradeReader } from './TradeBuckets';
import { UsdPrices } from './UsdPrices';

/** The list's own switches and its validated path parameters (`pool`: the pool address, `addr`). */
interface ListScope {
  args: ExplorerArgs;
  path: Record<string, string>;
}
type Narrow = (q: Knex.QueryBuilder, scope: ListScope) => void;
type ToRecord = (row: TextRow, pool: PoolInfo, usd: UsdPrices) => Record<string, unknown> | Promise<Record<string, unknown>>;

const POOL_PARAM: RouteDoc['params'] = { table: 'dex_pool', columns: { pool: 'pool' } };
const WINDOW_QUERY: QueryParamDoc[] = [
  { name: 'range', description: 'how far back from now: [n]unit, unit m h d w M y (default M)', schema: { type: 'string' } },
  { name: 'interval', description: 'bucket width: m h d w M y or a collapse code such as 4h (default d)', schema: { type: 'string' } },
  { name: 'limit', description: 'at most this many (latest) buckets, 0 to 10000, default 100', schema: { type: 'integer' } },
];

/**
 * The DEX part of the TzPro API (`/v1/dex…`, `/v1/wallets/{addr}/dex_…`) over the defi-dex tables.
 * Lists take the generic list parameters and `<field>[.op]=value` filters (framework/query), with the
 * SDK's field names mapped onto the tables' columns; records are shaped as the SDK's defi structs.
 * USD values come from `quotes` when given, else they are null.
 */
export class DexRoutes {
  private readonly pools: PoolBook;
  private readonly events: DexTable;
  private readonly trades: DexTable;
  private readonly positions: DexTable;
  private readonly history: PoolHistory;

  constructor(db: Database, catalog: Catalog, private readonly quotes?: UsdQuotes) {
    const parties = { name: 'address', anyOf: ['signer', 'sender', 'receiver'] };
    this.pools = new PoolBook(
      new DexTable(db, catalog.require('dex_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
        { name: 'last_change_block', aliasOf: 'last_change_height' },
      ]),
      new TokenBook(db, catalog),
    );
    this.events = new DexTable(db, catalog.require('dex_event'), [{ name: 'block', aliasOf: 'height' }, parties]);
    this.trades = new DexTable(db, catalog.require('dex_trade'), [{ name: 'block', aliasOf: 'height' }, parties]);
    this.positions = new DexTable(db, catalog.require('dex_position'), [
      { name: 'open_block', aliasOf: 'open_height' },
      { name: 'close_block', aliasOf: 'close_height' },
      { name: 'address', aliasOf: 'owner' },
    ]);
    this.history = new PoolHistory(this.pools, new TradeReader(this.trades));
  }

  register(r: RouteRegistry): void {
    const event: ToRecord = (row, pool) => eventRecord(row, pool);
    const trade: ToRecord = (row, pool) => tradeRecord(row, pool);
    const position: ToRecord = positionRecord;
    const openOnly: Narrow = (q, { args }) => {
      if (!args.flag('with_closed')) q.where('is_closed', false);
    };

    // Fixed paths before `/v1/dex/:pool`, which would match them too.
    explorerObject(r, '/v1/dex', 'ListDex', async (ctx) => ({ body: await this.poolList(ctx) }), { summary: 'DEX pools', query: LIST_QUERY });
    explorerObject(r, '/v1/dex/tickers', 'ListDexTickers', async (ctx) => ({ body: await this.history.tickers(await this.poolRows(ctx), this.usd()) }), {
      summary: '24h tickers of the DEX pools (pool list parameters and filters)',
      query: LIST_QUERY,
    });
    this.list(r, '/v1/dex/events', 'ListDexEvents', this.events, event, [], 'DEX events');
    this.list(r, '/v1/dex/trades', 'ListDexTrades', this.trades, trade, [], 'DEX trades');
    this.list(r, '/v1/dex/positions', 'ListDexPositions', this.positions, position, ['with_closed'], 'DEX liquidity positions', openOnly);

    explorerObject(r, '/v1/dex/:pool', 'GetDex', async (ctx) => {
      const pool = await this.pools.require(ctx.params.pool);
      return { body: await pool.record(this.usd()) };
    }, { summary: 'a DEX pool', params: POOL_PARAM });
    this.poolScoped(r, 'events', 'ListDexPoolEvents', this.events, event, []);
    this.poolScoped(r, 'trades', 'ListDexPoolTrades', this.trades, trade, []);
    this.poolScoped(r, 'positions', 'ListDexPoolPositions', this.positions, position, ['with_closed'], openOnly);
    explorerObject(r, '/v1/dex/:pool/ticker', 'GetDexTicker', async (ctx) => {
      const pool = await this.pools.require(ctx.params.pool);
      return { body: (await this.history.tickers([pool], this.usd()))[0] };
    }, { summary: 'the pool\'s 24h ticker', params: POOL_PARAM });
    explorerObject(r, '/v1/dex/:pool/candles', 'ListDexCandles', (ctx) => this.history.candles(ctx), {
      summary: 'OHLCV candles of the pool\'s trades: arrays of 13 (docs/defi-dex-api.md)',
      params: POOL_PARAM,
      query: WINDOW_QUERY,
    });
    explorerObject(r, '/v1/dex/:pool/prices', 'ListDexPrices', (ctx) => this.history.prices(ctx), {
      summary: 'price history of the pool as {series: [{name, columns, values}]}',
      params: POOL_PARAM,
      query: [
        ...WINDOW_QUERY,
        { name: 'select', description: 'comma-separated fields: price, open, high, low, close, vwap, vol_base, vol_quote', schema: { type: 'string' } },
        { name: 'fill', schema: { type: 'string', enum: ['none', 'null', 'last', 'linear', 'zero'] } },
      ],
    });

    const wallet = (kind: string, scope: string, table: DexTable, toRecord: ToRecord, columns: string[], own: string[], extra?: Narrow): void =>
      this.list(r, `/v1/wallets/:addr/${kind}`, scope, table, toRecord, own, `the wallet's ${kind.replace('_', ' ')}`, (q, s) => {
        q.where((any) => columns.forEach((c) => any.orWhere(c, s.path.addr)));
        extra?.(q, s);
      }, WALLET_PARAM);
    wallet('dex_events', 'ListWalletDexEvents', this.events, event, ['signer', 'sender', 'receiver'], []);
    wallet('dex_trades', 'ListWalletDexTrades', this.trades, trade, ['signer', 'sender', 'receiver'], []);
    wallet('dex_positions', 'ListWalletDexPositions', this.positions, position, ['owner'], ['with_closed'], openOnly);
  }

  private usd(): UsdPrices {
    return new UsdPrices(this.quotes, new Date());
  }

  /** A list route: the table's rows page by page, `narrow` adding the path's conditions. */
  private list(r: RouteRegistry, path: string, scope: string, table: DexTable, toRecord: ToRecord, own: string[], summary: string, narrow?: Narrow, params?: RouteDoc['params']): void {
    explorerObject(r, path, scope, async (ctx) => {
      const rows = await this.page(ctx, table, own, narrow);
      return { body: await this.records(rows, toRecord) };
    }, { summary, query: [...LIST_QUERY, ...(own.includes('with_closed') ? [WITH_CLOSED] : [])], ...(params ? { params } : {}) });
  }

  /** `/v1/dex/{pool}/{kind}`: a list narrowed to one pool (404 for an unknown pool). */
  private poolScoped(r: RouteRegistry, kind: string, scope: string, table: DexTable, toRecord: ToRecord, own: string[], extra?: Narrow): void {
    this.list(r, `/v1/dex/:pool/${kind}`, scope, table, toRecord, own, `the pool's ${kind}`, (q, s) => {
      q.where('pool', s.path.pool);
      extra?.(q, s);
    }, POOL_PARAM);
  }

  private async page(ctx: Context, table: DexTable, own: readonly string[], narrow?: Narrow): Promise<TextRow[]> {
    // Path parameters first: a malformed or unknown pool or address is 400/404 whatever the query.
    const path: Record<string, string> = {};
    if (ctx.params.pool !== undefined) path.pool = (await this.pools.require(ctx.params.pool)).address;
    if (ctx.params.addr !== undefined) path.addr = parseAddress(ctx.params.addr);
    const args = new ExplorerArgs(ctx.query as QueryArgs, own);
    const request = parseTableRequest(table.filters, args.rest, OBJECT_LIST_PROFILE);
    if (request.limit === 0) return [];
    const q = table.query();
    narrow?.(q, { args, path });
    return table.read(applyListRequest(q, request));
  }

  private async records(rows: readonly TextRow[], toRecord: ToRecord): Promise<Record<string, unknown>[]> {
    const infos = await this.pools.infos(rows.map((r) => r.pool!));
    const usd = this.usd();
    return Promise.all(rows.map((row) => toRecord(row, infos.get(row.pool!) ?? PoolInfo.unknown(row), usd)));
  }

  private async poolRows(ctx: Context): Promise<PoolInfo[]> {
    return [...(await this.pools.withTokens(await this.page(ctx, this.pools.pools, []))).values()];
  }

  private async poolList(ctx: Context): Promise<Record<string, unknown>[]> {
    const usd = this.usd();
    return Promise.all((await this.poolRows(ctx)).map((p) => p.record(usd)));
  }
}
