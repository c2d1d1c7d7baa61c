import { Knex } from 'knex';
import { injectable } from 'tsyringe';
import { Encoding } from '../catalog/types/ColumnType';
import { applyFilters, RawRow } from '../query/TableQueryEngine';
import { Database } from '../storage/Database';
import { quote } from '../storage/SchemaMigrator';
import { CompiledSeries, PartialColumn } from './CompiledSeries';
import { SeriesRequest } from './SeriesRequest';
import { isMissingTable, rollupTable, SeriesRollups } from './SeriesRollups';

/** Where buckets come from: `auto` takes the rollup whenever it can answer the request. */
export type SeriesSource = 'auto' | 'raw' | 'rollup';

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

  async query(series: CompiledSeries, req: SeriesRequest, enc: Encoding, source: SeriesSource = 'auto'): Promise<SeriesResult> {
    const level = req.collapse.level;
    const rollup = source !== 'raw' && series.rollupServes(req.filters) && (await this.rollups.usable(series, level));
    if (source === 'rollup' && !rollup) throw new Error(`series '${series.def.code}' has no usable ${level} rollup`);
    if (rollup) {
      try {
        return { rows: await this.db.selectRows(this.select(req, enc, this.fromRollup(series, req))), source: `rollup:${level}` };
      } catch (e) {
        // The writer rebuilt the rollup between the check and the query: the raw rows still answer.
        if (!isMissingTable(e) || source === 'rollup') throw e;
      }
    }
    return { rows: await this.db.selectRows(this.select(req, enc, this.fromRaw(series, req, partialsOf(series, req)))), source: 'raw' };
  }

  private select(req: SeriesRequest, enc: Encoding, partials: Knex.Raw | Knex.QueryBuilder): Knex.Raw {
    const values = ['(extract(epoch from "b") * 1000)::bigint::text', ...req.measures.map((m) => m.value(enc))];
    return this.db.reader.raw(`select ${values.join(', ')} from ? p group by "b" order by "b" ${req.order} limit ?`, [partials, req.limit]);
  }

  /** Raw rows of the window as one-row partials, bucketed by the collapse. */
  private fromRaw(series: CompiledSeries, req: SeriesRequest, partials: readonly PartialColumn[], extra?: (q: Knex.QueryBuilder) => void): Knex.QueryBuilder {
    const knex = this.db.reader;
    const t = series.def.table;
    const list = [`${req.collapse.bucketSql(series.timeRef)} as "b"`, ...partials.map((p) => `${p.raw} as ${quote(p.name)}`)];
    const q = knex.withSchema(t.schema).from(t.storage).select(knex.raw(list.join(', ')));
    q.whereRaw(`${series.timeRef} >= ? and ${series.timeRef} < ?`, [new Date(req.window.from), new Date(req.window.to)]);
    applyFilters(q, req.filters);
    extra?.(q);
    return q;
  }

  /** Rollup buckets of the window plus the raw rows not folded in yet, read in one snapshot. */
  private fromRollup(series: CompiledSeries, req: SeriesRequest): Knex.Raw {
    const knex = this.db.reader;
    const level = req.collapse.level;
    const partials = partialsOf(series, req);
    const stored = [`${req.collapse.bucketSql('"b"')} as "b"`, ...partials.map((p) => quote(p.name))];
    // The partitions the filters select; the other filters leave out hidden rows, which no rollup holds.
    const equalities = req.filters.filter((f) => series.partitionEquality(f));
    const partition = equalities.map((f) => `${quote(f.column.name)} = ${f.column.type.placeholder}`);
    const buckets = knex.raw(`select ${stored.join(', ')} from ${rollupTable(series, level)} where ${['"b" >= ? and "b" < ?', ...partition].join(' and ')}`, [
      new Date(req.window.from),
      new Date(req.window.to),
      ...equalities.map((f) => f.values[0]),
    ]);
    const watermark = this.rollups.watermarkSql(series, level);
    const tail = this.fromRaw(series, req, partials, (q) => q.whereRaw(`"row_id" > ${watermark.sql}`, watermark.bindings));
    return knex.raw('(? union all ?)', [buckets, tail]);
  }
}

/** The partials the requested measures need, in the series' fixed order; the row count always. */
function partialsOf(series: CompiledSeries, req: SeriesRequest): PartialColumn[] {
  const needed = new Set(['cnt', ...req.measures.flatMap((m) => m.partials.map((p) => p.name))]);
  return series.partials.filter((p) => needed.has(p.name));
}
