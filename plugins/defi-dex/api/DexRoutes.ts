import type { Context } from 'koa';
import {
  applyListRequest,
  Catalog,
  Database,
  ExplorerArgs,
  explorerObject,
  OBJECT_LIST_PROFILE,
  parseTableRequest,
  QueryParamDoc,
  RouteDoc,
  RouteRegistry,
} from '../../../framework';
import { type UsdQuotes, DexTable, LIST_QUERY, PoolRecords, TokenBook } from '../../../framework/defi';
import { eventRecord, tradeRecord } from './EventRecords';
import { PoolBook, PoolInfo } from './PoolBook';
import { positionRecord } from './PositionRecords';
import { PoolHistory } from './PoolHistory';
import { TradeSeries } from './TradeSeries';

const POOL_PARAM: RouteDoc['params'] = { table: 'dex_pool', columns: { pool: 'pool' } };
const WINDOW_QUERY: QueryParamDoc[] = [
  {
    name: 'range',
    description: 'how far back from now: [n]unit, unit m h d w M y (default M)',
    schema: { type: 'string' },
  },
  {
    name: 'interval',
    description: 'bucket width: m h d w M y or a collapse code such as 4h (default d)',
    schema: { type: 'string' },
  },
  {
    name: 'limit',
    description: 'at most this many (latest) buckets, 0 to 10000, default 100',
    schema: { type: 'integer' },
  },
];

/**
 * The DEX part of the TzPro API (`/v1/dex…`, `/v1/wallets/{addr}/dex_…`) over the defi-dex tables.
 * The lists and pool objects are declared in tables.yaml (defi-dex `routes:`): here only the pool of
 * a path (400 malformed, 404 unknown) and the record shapers (the SDK's defi structs) they name. The
 * composite routes (tickers, candles, price series) stay hand-written and take the same list
 * parameters and `<field>[.op]=value` filters (framework/query) with the SDK's field names. USD
 * values come from `quotes` when given, else they are null.
 */
export class DexRoutes {
  private readonly pools: PoolBook;
  private readonly records: PoolRecords<PoolInfo>;
  private readonly history: PoolHistory;

  constructor(db: Database, catalog: Catalog, quotes?: UsdQuotes) {
    this.pools = new PoolBook(
      new DexTable(db, catalog.require('dex_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
        { name: 'last_change_block', aliasOf: 'last_change_height' },
      ]),
      new TokenBook(db, catalog),
    );
    const book = this.pools;
    this.records = new PoolRecords<PoolInfo>(
      {
        require: (pool) => book.require(pool),
        infos: (keys) => book.infos(keys),
        withTokens: (rows) => book.withTokens(rows),
        unknown: PoolInfo.unknown,
      },
      quotes,
    );
    this.history = new PoolHistory(this.pools, new TradeSeries(db, catalog));
  }

  register(r: RouteRegistry): void {
    r.shapers.key('dex_pool', this.records.key);
    r.shapers.record(
      'dex_pool',
      this.records.poolRecords((pool, usd) => pool.record(usd)),
    );
    r.shapers.record(
      'dex_event',
      this.records.rowRecords((row, pool) => eventRecord(row, pool)),
    );
    r.shapers.record(
      'dex_trade',
      this.records.rowRecords((row, pool) => tradeRecord(row, pool)),
    );
    r.shapers.record('dex_position', this.records.rowRecords(positionRecord));

    // Before the declared `/v1/dex/:pool`, which would match it too.
    explorerObject(
      r,
      '/v1/dex/tickers',
      'ListDexTickers',
      async (ctx) => ({ body: await this.history.tickers(await this.poolRows(ctx), this.records.usd()) }),
      { summary: '24h tickers of the DEX pools (pool list parameters and filters)', query: LIST_QUERY },
    );
    explorerObject(
      r,
      '/v1/dex/:pool/ticker',
      'GetDexTicker',
      async (ctx) => {
        const pool = await this.pools.require(ctx.params.pool);
        return { body: (await this.history.tickers([pool], this.records.usd()))[0] };
      },
      { summary: "the pool's 24h ticker", params: POOL_PARAM },
    );
    explorerObject(r, '/v1/dex/:pool/candles', 'ListDexCandles', (ctx) => this.history.candles(ctx), {
      summary: "OHLCV candles of the pool's trades: arrays of 13 (docs/defi-dex-api.md)",
      params: POOL_PARAM,
      query: WINDOW_QUERY,
    });
    explorerObject(r, '/v1/dex/:pool/prices', 'ListDexPrices', (ctx) => this.history.prices(ctx), {
      summary: 'price history of the pool as {series: [{name, columns, values}]}',
      params: POOL_PARAM,
      query: [
        ...WINDOW_QUERY,
        {
          name: 'select',
          description: 'comma-separated fields: price, open, high, low, close, vwap, vol_base, vol_quote',
          schema: { type: 'string' },
        },
        { name: 'fill', schema: { type: 'string', enum: ['none', 'null', 'last', 'linear', 'zero'] } },
      ],
    });
  }

  /** A page of pools with their tokens: the pool list's parameters and filters. */
  private async poolRows(ctx: Context): Promise<PoolInfo[]> {
    const table = this.pools.pools;
    const request = parseTableRequest(table.filters, new ExplorerArgs(ctx.query, []).rest, OBJECT_LIST_PROFILE);
    if (request.limit === 0) return [];
    return [...(await this.pools.withTokens(await table.read(applyListRequest(table.query(), request)))).values()];
  }
}
