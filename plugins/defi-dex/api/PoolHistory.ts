import type { Context } from 'koa';
import { ApiError, ExplorerArgs, OBJECT_LIST_PROFILE, ObjectAnswer } from '../../../framework';
import { candle } from './Candles';
import type { PoolBook, PoolInfo } from './PoolBook';
import { parseFill, parseSelect, priceSeries, seriesBody } from './PriceSeries';
import { DAY_MS, ticker } from './Ticker';
import { bucketWindow } from './TimeRange';
import type { TradeSeries } from './TradeSeries';
import { type UsdPrices } from '../../../framework/defi';

/**
 * What a pool's trades say over time: the 24h tickers, candles and price history, aggregated by the
 * series engine (TradeSeries). Kept apart from the record lists, which read trades by row id.
 */
export class PoolHistory {
  constructor(
    private readonly pools: PoolBook,
    private readonly trades: TradeSeries,
  ) {}

  async tickers(pools: readonly PoolInfo[], usd: UsdPrices): Promise<Record<string, unknown>[]> {
    const now = Date.now();
    return Promise.all(
      pools.map(async (p) => {
        const [day, last] = await Promise.all([
          this.trades.span(p.address, now - DAY_MS, now + 1),
          this.trades.latest(p.address, now + 1),
        ]);
        return ticker(p, day, last, now, usd);
      }),
    );
  }

  async candles(ctx: Context): Promise<ObjectAnswer> {
    const { pool, window, buckets } = await this.window(ctx, []);
    return { body: buckets.map((b) => candle(b, window.collapse, pool)) };
  }

  async prices(ctx: Context): Promise<ObjectAnswer> {
    const { args, pool, window, limit, buckets } = await this.window(ctx, ['select', 'fill']);
    const select = parseSelect(args.get('select'));
    const fill = parseFill(args.get('fill'));
    if (limit === 0) return { body: seriesBody(pool.address, select, []) };
    return {
      body: priceSeries(pool, buckets, window, await this.trades.latest(pool.address, window.from), select, fill),
    };
  }

  /** The pool's trades bucketed over `range` by `interval` (candles and prices); other parameters are 400. */
  private async window(ctx: Context, own: readonly string[]) {
    const args = new ExplorerArgs(ctx.query, ['range', 'interval', 'limit', ...own]);
    for (const key of Object.keys(args.rest)) throw ApiError.badQuery(`unknown parameter '${key}'`);
    const pool = await this.pools.require(ctx.params.pool);
    const limit = parseWindowLimit(args.get('limit'));
    const window = bucketWindow(args.get('range'), args.get('interval'), limit, Date.now());
    const buckets = limit === 0 ? [] : await this.trades.buckets(pool.address, window.collapse, window, limit);
    return { args, pool, window, limit, buckets };
  }
}

/** `limit` of candles and prices: the latest buckets, 0 to 10000 (larger is clamped), default 100. */
function parseWindowLimit(arg: string | undefined): number {
  if (arg === undefined || arg === '') return OBJECT_LIST_PROFILE.defaultLimit;
  if (!/^\d{1,9}$/.test(arg)) throw ApiError.badQuery(`invalid limit '${arg}': expected a non-negative integer`);
  return Math.min(Number(arg), OBJECT_LIST_PROFILE.maxLimit);
}
