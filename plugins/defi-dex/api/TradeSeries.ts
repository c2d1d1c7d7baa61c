import {
  Catalog,
  Collapse,
  compileSeries,
  CompiledSeries,
  Database,
  Filter,
  pathFilter,
  RawRow,
  SeriesQueryEngine,
  SeriesRollups,
  SeriesWindow,
} from '../../../framework';
import { scaled } from '../../../framework/defi';

/** Aggregates of a pool's priced trades (a bucket, a span or one trade): prices 10^18-scaled price_net, raw volumes. */
export interface Trades {
  readonly n: number;
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  readonly base: bigint;
  readonly quote: bigint;
}

/** One bucket of trades (start in unix ms) with its buys: count and raw volumes. */
export interface Bucket extends Trades {
  readonly start: number;
  readonly buys: number;
  readonly buyBase: bigint;
  readonly buyQuote: bigint;
}

/** The latest trade before some time: its time (unix ms) and itself as Trades. */
export interface LastTrade extends Trades {
  readonly time: number;
}

/**
 * A pool's priced trades as the catalog series `dex_trades` (tables.yaml) serves them through the
 * framework's series engine, rollups included: the buckets of a window (the buys by the series'
 * `side` partition), the totals of a span of any bounds, and the latest trade before a time. Dust
 * trades are left out by the series' own `where`.
 */
export class TradeSeries {
  private readonly series: CompiledSeries;
  private readonly engine: SeriesQueryEngine;

  constructor(db: Database, catalog: Catalog) {
    const def = catalog.series.get('dex_trades');
    if (!def) throw new Error("the catalog has no series 'dex_trades'");
    this.series = compileSeries(def);
    this.engine = new SeriesQueryEngine(db, new SeriesRollups(db, catalog));
  }

  /** The window's buckets that have trades, oldest first (at most `limit`). */
  async buckets(pool: string, collapse: Collapse, window: SeriesWindow, limit: number): Promise<Bucket[]> {
    const req = { collapse, window, order: 'asc' as const, limit, fill: 'none' as const };
    const filters = this.filters(pool);
    const buyFilters = [...filters, pathFilter(this.series.def.table, 'side', 'buy')];
    const [all, buys] = await Promise.all([
      this.engine.query(this.series, { ...req, measures: this.series.measures, filters }, 'compact'),
      this.engine.query(
        this.series,
        { ...req, measures: this.measures('n_trades', 'base_volume', 'quote_volume'), filters: buyFilters },
        'compact',
      ),
    ]);
    const byStart = new Map(buys.rows.map((r) => [r[0], r]));
    return all.rows.map((r) => {
      const b = byStart.get(r[0]);
      return {
        start: Number(r[0]),
        ...this.trades(r),
        buys: Number(b?.[1] ?? 0),
        buyBase: BigInt(b?.[2] ?? 0),
        buyQuote: BigInt(b?.[3] ?? 0),
      };
    });
  }

  /** The trades with from <= time < to, whatever the bounds, as one bucket; none without trades. */
  async span(pool: string, from: number, to: number): Promise<Trades[]> {
    const row = await this.engine.total(
      this.series,
      { measures: this.series.measures, filters: this.filters(pool) },
      from,
      to,
      'compact',
    );
    return row ? [this.trades(row)] : [];
  }

  /** The latest trade before `before`, if any. */
  async latest(pool: string, before: number): Promise<LastTrade | undefined> {
    const row = await this.engine.latest(
      this.series,
      { measures: this.series.measures, filters: this.filters(pool) },
      before,
      'compact',
    );
    return row && { time: Number(row[0]), ...this.trades(row) };
  }

  private filters(pool: string): Filter[] {
    return [pathFilter(this.series.def.table, 'pool', pool)];
  }

  private measures(...names: string[]) {
    return names.map((n) => this.series.measure(n)!);
  }

  /** A row of every measure (time first), read by the measures' names. */
  private trades(r: RawRow): Trades {
    const cell = (name: string): string | null => r[1 + this.series.measures.findIndex((m) => m.name === name)];
    const price = (name: string): bigint => scaled(cell(name)!);
    const count = (name: string): bigint => BigInt(cell(name)!);
    return {
      n: Number(count('n_trades')),
      open: price('open'),
      high: price('high'),
      low: price('low'),
      close: price('close'),
      base: count('base_volume'),
      quote: count('quote_volume'),
    };
  }
}
