import { Knex } from 'knex';
import { injectable } from 'tsyringe';
import { Encoding } from '../catalog/types/ColumnType';
import { Filter } from '../query/TableRequest';
import { applyFilters, RawRow } from '../query/TableQueryEngine';
import { Database } from '../storage/Database';
import { quote } from '../storage/SchemaMigrator';
import { CompiledSeries, Measure, PartialColumn } from './CompiledSeries';
import { SeriesRequest } from './SeriesRequest';
import { isMissingTable, rollupTable, SeriesRollups } from './SeriesRollups';

/** Where buckets come from: `auto` takes the rollup whenever it can answer the request. */
export type SeriesSource = 'auto' | 'raw' | 'rollup';

/** Measures over rows chosen by filters alone: a span or one row, not buckets (SeriesQueryEngine.total, latest). */
export interface SpanRequest {
  readonly measures: readonly Measure[];
  readonly filters: readonly Filter[];
}

export interface SeriesResult {
  /** One row per non-empty bucket in the requested order: bucket start (unix ms), then each measure. */
  readonly rows: RawRow[];
  /** `raw`, or `rollup:<level>` (e.g. `rollup:1d`). */
  readonly source: string;
}

/**
 * The one engine behind every time-series: one statement that groups partial aggregates by the
 * collapse bucket. Partials come either from the raw table (any filter, any window) or from the
 * rollup of the coarsest level that tiles the collapse plus the raw rows above its watermark (no
 * filters), which gives the same buckets at a fraction of the cost.
 */
@injectable()
export class SeriesQueryEngine {
  constructor(
    private readonly db: Database,
    private readonly rollups: SeriesRollups,
  ) {}

  async query(
    series: CompiledSeries,
    req: SeriesRequest,
    enc: Encoding,
    source: SeriesSource = 'auto',
  ): Promise<SeriesResult> {
    const level = req.collapse.level;
    const rollup = source !== 'raw' && series.rollupServes(req.filters) && (await this.rollups.usable(series, level));
    if (source === 'rollup' && !rollup) throw new Error(`series '${series.def.code}' has no usable ${level} rollup`);
    if (rollup) {
      try {
        return {
          rows: await this.db.selectRows(this.select(req, enc, this.fromRollup(series, req))),
          source: `rollup:${level}`,
        };
      } catch (e) {
        // The writer rebuilt the rollup between the check and the query: the raw rows still answer.
        if (!isMissingTable(e) || source === 'rollup') throw e;
      }
    }
    return {
      rows: await this.db.selectRows(
        this.select(req, enc, this.fromRaw(series, req, partialsOf(series, req.measures))),
      ),
      source: 'raw',
    };
  }

  /**
   * The measures over every row with `from` <= time < `to`, bounds that need not fall on buckets (a
   * rolling 24 hours), as one bucket whose time is `from` (none without rows): read from the raw rows.
   */
  async total(
    series: CompiledSeries,
    span: SpanRequest,
    from: number,
    to: number,
    enc: Encoding,
  ): Promise<RawRow | undefined> {
    const rows = this.raw(
      series,
      partialsOf(series, span.measures),
      span.filters,
      `to_timestamp(${Number(from) / 1000})`,
      (q) => q.whereRaw(`${series.timeRef} >= ? and ${series.timeRef} < ?`, [new Date(from), new Date(to)]),
    );
    return (await this.db.selectRows(this.select({ ...span, order: 'asc', limit: 1 }, enc, rows)))[0];
  }

  /** The measures of the latest row before `before` (by time, then row_id) with its time; undefined: none. */
  async latest(series: CompiledSeries, span: SpanRequest, before: number, enc: Encoding): Promise<RawRow | undefined> {
    const rows = this.raw(series, partialsOf(series, span.measures), span.filters, series.timeRef, (q) =>
      q
        .whereRaw(`${series.timeRef} < ?`, [new Date(before)])
        .orderBy([
          { column: series.def.timeColumn.name, order: 'desc' },
          { column: 'row_id', order: 'desc' },
        ])
        .limit(1),
    );
    return (await this.db.selectRows(this.select({ ...span, order: 'desc', limit: 1 }, enc, rows)))[0];
  }

  private select(
    req: Pick<SeriesRequest, 'measures' | 'order' | 'limit'>,
    enc: Encoding,
    partials: Knex.Raw | Knex.QueryBuilder,
  ): Knex.Raw {
    const values = ['(extract(epoch from "b") * 1000)::bigint::text', ...req.measures.map((m) => m.value(enc))];
    return this.db.reader.raw(`select ${values.join(', ')} from ? p group by "b" order by "b" ${req.order} limit ?`, [
      partials,
      req.limit,
    ]);
  }

  /** Raw rows of the window as one-row partials, bucketed by the collapse. */
  private fromRaw(
    series: CompiledSeries,
    req: SeriesRequest,
    partials: readonly PartialColumn[],
    extra?: (q: Knex.QueryBuilder) => void,
  ): Knex.QueryBuilder {
    return this.raw(series, partials, req.filters, req.collapse.bucketSql(series.timeRef), (q) => {
      q.whereRaw(`${series.timeRef} >= ? and ${series.timeRef} < ?`, [
        new Date(req.window.from),
        new Date(req.window.to),
      ]);
      extra?.(q);
    });
  }

  /** Raw rows as one-row partials in bucket `b`: the filters (the parser adds the orphan rule) and own conditions. */
  private raw(
    series: CompiledSeries,
    partials: readonly PartialColumn[],
    filters: readonly Filter[],
    bucket: string,
    rows: (q: Knex.QueryBuilder) => void,
  ): Knex.QueryBuilder {
    const knex = this.db.reader;
    const t = series.def.table;
    const list = [`${bucket} as "b"`, ...partials.map((p) => `${p.raw} as ${quote(p.name)}`)];
    const q = knex
      .withSchema(t.schema)
      .from(t.storage)
      .select(knex.raw(list.join(', ')));
    rows(q);
    applyFilters(q, filters);
    if (series.rowsWhere) q.whereRaw(series.rowsWhere);
    return q;
  }

  /** Rollup buckets of the window plus the raw rows not folded in yet, read in one snapshot. */
  private fromRollup(series: CompiledSeries, req: SeriesRequest): Knex.Raw {
    const knex = this.db.reader;
    const level = req.collapse.level;
    const partials = partialsOf(series, req.measures);
    const stored = [`${req.collapse.bucketSql('"b"')} as "b"`, ...partials.map((p) => quote(p.name))];
    // The partitions the filters select; the other filters leave out hidden rows, which no rollup holds.
    const equalities = req.filters.filter((f) => series.partitionEquality(f));
    const partition = equalities.map((f) => `${quote(f.column.name)} = ${f.column.type.placeholder}`);
    const buckets = knex.raw(
      `select ${stored.join(', ')} from ${rollupTable(series, level)}
        where ${['"b" >= ? and "b" < ?', ...partition].join(' and ')}`,
      [new Date(req.window.from), new Date(req.window.to), ...equalities.map((f) => f.values[0])],
    );
    const watermark = this.rollups.watermarkSql(series, level);
    const tail = this.fromRaw(series, req, partials, (q) =>
      q.whereRaw(`"row_id" > ${watermark.sql}`, watermark.bindings),
    );
    return knex.raw('(? union all ?)', [buckets, tail]);
  }
}

/** The partials the requested measures need, in the series' fixed order; the row count always. */
function partialsOf(series: CompiledSeries, measures: readonly Measure[]): PartialColumn[] {
  const needed = new Set(['cnt', ...measures.flatMap((m) => m.partials.map((p) => p.name))]);
  return series.partials.filter((p) => needed.has(p.name));
}
