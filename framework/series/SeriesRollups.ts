import { createHash } from 'node:crypto';
import { Knex } from 'knex';
import { injectable } from 'tsyringe';
import { Catalog } from '../catalog/Catalog';
import type { TableDef } from '../catalog/CatalogModel';
import { Database } from '../storage/Database';
import { META_SCHEMA, quote } from '../storage/SchemaMigrator';
import { Collapse, ROLLUP_LEVELS, RollupLevel } from './Collapse';
import { compileSeries, CompiledSeries } from './CompiledSeries';

/** Bump when the layout of rollup tables changes: every rollup is then rebuilt. */
const FORMAT = 1;
const STATE_TABLE = `${quote(META_SCHEMA)}.${quote('series_rollup')}`;

export interface RollupUpdateReport {
  /** Per series code: the row_id up to which every level now includes the table. */
  watermarks: Record<string, string>;
}

interface LevelState {
  level: RollupLevel;
  watermark: string;
}

/** A level's row of `tzidx.series_rollup`: its state and the definition it was built for. */
interface StoredState extends LevelState {
  definition: string;
}

/** Whether every level of a series is stored and was built for its current definition. */
function isCurrent(series: CompiledSeries, states: readonly StoredState[]): boolean {
  return ROLLUP_LEVELS.every((level) =>
    states.some((s) => s.level === level && s.definition === definitionHash(series, level)),
  );
}

/**
 * Pre-aggregated buckets (1 minute, 1 hour, 1 day) of every series over an append table, so a year
 * at 1d reads 365 rollup rows instead of millions of raw rows. Each rollup table lives in the
 * plugin's schema as `rollup_<series>_<level>` and holds the partial aggregates of its buckets (row
 * count, sums, minima, maxima, first/last rows with their (time, row_id) keys, the highest block
 * height). `tzidx.series_rollup` records per series and level the definition it was built for and the
 * watermark: the largest raw row_id folded in.
 *
 * The indexer calls `update(trx)` after writing a block or batch and `rollback(trx, height)` after
 * removing rows above a height, both inside its transaction, so readers always see rollups and raw
 * rows of the same commit. Queries read buckets plus the raw rows above the watermark, so an answer
 * is exact even when `update` lags; `rollback` is required for correctness.
 * There must be a single writer: row_ids are taken as committed in order.
 */
@injectable()
export class SeriesRollups {
  /** Raw row_ids folded per statement while catching up, so one statement's memory stays bounded. */
  sliceRows = 1_000_000;

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  /** Series whose table only grows (mutable tables change rows in place: their series read raw rows). */
  covered(): CompiledSeries[] {
    return [...this.catalog.series.values()].filter((s) => s.table.kind === 'append').map(compileSeries);
  }

  covers(series: CompiledSeries): boolean {
    return series.def.table.kind === 'append' && this.catalog.series.get(series.def.code) === series.def;
  }

  /** Creates missing rollup tables and rebuilds (empties) those whose definition changed. Idempotent. */
  async prepare(trx: Knex.Transaction): Promise<void> {
    await this.ensureStateTable(trx);
    for (const series of this.covered()) await this.ensureSeries(trx, series);
  }

  /**
   * Folds the raw rows written since the last update into every level of every covered series: the
   * finest level from the raw rows, each coarser one by recomputing the buckets the finer level
   * touched from the finer level's buckets (one scan of the new raw rows instead of one per level).
   */
  async update(trx: Knex.Transaction): Promise<RollupUpdateReport> {
    await this.ensureStateTable(trx);
    const report: RollupUpdateReport = { watermarks: {} };
    const covered = this.covered();
    // Per batch a fixed number of round trips, not a few per series and level: the states of every
    // series locked in one statement, the tables' highest row ids read in one, the watermarks moved in one.
    const states = await this.lockAllStates(trx, covered);
    const maxima = await this.maxRowIds(trx, covered);
    const moved: Array<{ series: string; level: RollupLevel; watermark: string }> = [];
    for (const series of covered) {
      const levels = states
        .get(series.def.code)!
        .sort((a, b) => ROLLUP_LEVELS.indexOf(a.level) - ROLLUP_LEVELS.indexOf(b.level));
      const max = maxima.get(series.def.table)!;
      /** The level folded just before, from which watermark, and the span of its buckets that changed. */
      let finer: { level: RollupLevel; from: string; span: BucketSpan | null } | undefined;
      for (const { level, watermark } of levels) {
        if (max === null || BigInt(max) <= BigInt(watermark)) {
          finer = undefined;
          continue;
        }
        let span: BucketSpan | null = null;
        // Partitioned rollups are keyed by partition first: a span of buckets is no index range there.
        if (finer && finer.from === watermark && series.partitionRefs.length === 0) {
          if (finer.span) span = await this.refold(trx, series, finer.level, level, finer.span);
        } else {
          const slice = BigInt(this.sliceRows);
          for (let lo = BigInt(watermark); lo < BigInt(max); lo += slice) {
            const hi = lo + slice < BigInt(max) ? lo + slice : BigInt(max);
            span = widen(
              span,
              await this.fold(trx, series, level, '"row_id" > ? and "row_id" <= ?', [lo.toString(), hi.toString()]),
            );
          }
        }
        moved.push({ series: series.def.code, level, watermark: max });
        finer = { level, from: watermark, span };
      }
      report.watermarks[series.def.code] = max ?? '0';
    }
    if (moved.length > 0) {
      await trx.raw(
        `update ${STATE_TABLE} s set watermark = v.watermark::bigint, updated_at = now()
           from (values ${moved.map(() => '(?, ?, ?)').join(', ')}) as v(series, level, watermark)
          where s.series = v.series and s.level = v.level`,
        moved.flatMap((m) => [m.series, m.level, m.watermark]),
      );
    }
    return report;
  }

  /**
   * After the rows above `height` were deleted (or flagged as orphans): every bucket holding such a
   * row, and every later one, is recomputed from the raw rows that remain up to the watermark. The
   * watermark then comes down to the highest row id left: the indexer numbers the new branch's rows
   * from there (the same ids a fresh instance gives them), and rows at or below the watermark would
   * count neither in the buckets nor in the raw tail above it. A table whose rows settle after later
   * blocks (`settlesAfter`) counts the rows that are no longer settled as above the watermark: the
   * new branch's blocks may change them again (the block at `height` gets a new successor's slots).
   */
  async rollback(trx: Knex.Transaction, height: number): Promise<void> {
    await this.ensureStateTable(trx);
    for (const series of this.covered()) {
      if (!series.heightRef) continue;
      const t = series.def.table;
      const settled = height - t.settlesAfter;
      const cap = settledMaxRowId(t, height);
      const [{ left }] = (await trx.raw(`select coalesce(${cap.sql}, 0)::text as "left"`, cap.bindings)).rows;
      for (const { level, watermark } of await this.lockStates(trx, series)) {
        const table = rollupTable(series, level);
        const [{ since }] = (await trx.raw(`select min("b") as since from ${table} where "mh" > ?`, [settled])).rows;
        if (since === null) continue;
        await trx.raw(`delete from ${table} where "b" >= ?`, [since]);
        const upTo = BigInt(left) < BigInt(watermark) ? left : watermark;
        await this.fold(trx, series, level, `"row_id" <= ? and ${series.timeRef} >= ? and ${series.heightRef} <= ?`, [
          upTo,
          since,
          settled,
        ]);
      }
      await trx.raw(
        `update ${STATE_TABLE} set watermark = least(watermark, ?::bigint), updated_at = now() where series = ?`,
        [left, series.def.code],
      );
    }
  }

  /**
   * Rows of an append table changed in place after they were folded (a denunciation's figures, set
   * when its slashing comes cycles later): every level's buckets holding them are recomputed from the
   * raw rows up to the level's watermark. Rows above it are in no bucket yet.
   */
  async refresh(trx: Knex.Transaction, table: TableDef, rowIds: readonly string[]): Promise<void> {
    if (rowIds.length === 0) return;
    await this.ensureStateTable(trx);
    const raw = `${quote(table.schema)}.${quote(table.storage)}`;
    for (const series of this.covered().filter((s) => s.def.table === table)) {
      for (const { level, watermark } of await this.lockStates(trx, series)) {
        const ids = rowIds.map(() => '?').join(', ');
        const times = await trx.raw(
          `select distinct (extract(epoch from ${series.timeRef}) * 1000)::float8 as t from ${raw}
            where "row_id" in (${ids}) and "row_id" <= ? and ${series.timeRef} is not null`,
          [...rowIds, watermark],
        );
        const collapse = Collapse.of(level);
        const starts = new Set<number>(times.rows.map((r: { t: number }) => collapse.truncate(Number(r.t))));
        for (const start of starts) {
          const [from, to] = [new Date(start), new Date(collapse.add(start, 1))];
          await trx.raw(`delete from ${rollupTable(series, level)} where "b" = ?`, [from]);
          const within = `"row_id" <= ? and ${series.timeRef} >= ? and ${series.timeRef} < ?`;
          await this.fold(trx, series, level, within, [watermark, from, to]);
        }
      }
    }
  }

  /** Whether queries at this level may read the rollup: built for the current definition and filled. */
  async usable(series: CompiledSeries, level: RollupLevel): Promise<boolean> {
    if (!this.covers(series)) return false;
    try {
      const rows = await this.db.reader.raw(
        `select definition, watermark from ${STATE_TABLE} where series = ? and level = ?`,
        [series.def.code, level],
      );
      const state = rows.rows[0] as { definition: string; watermark: string } | undefined;
      return state !== undefined && state.definition === definitionHash(series, level) && BigInt(state.watermark) > 0n;
    } catch (e) {
      if (isMissingTable(e)) return false;
      throw e;
    }
  }

  /** SQL for the watermark of a series level, to be read in the same statement as the rollup rows. */
  watermarkSql(series: CompiledSeries, level: RollupLevel): { sql: string; bindings: string[] } {
    return {
      sql: `(select watermark from ${STATE_TABLE} where series = ? and level = ?)`,
      bindings: [series.def.code, level],
    };
  }

  /**
   * Every series' level states, locked for this transaction: what lockStates reads, for all series in one statement (a
   * series whose levels need building goes through lockStates).
   */
  private async lockAllStates(
    trx: Knex.Transaction,
    covered: readonly CompiledSeries[],
  ): Promise<Map<string, LevelState[]>> {
    if (covered.length === 0) return new Map();
    const read = new Map<string, StoredState[]>(covered.map((s) => [s.def.code, []]));
    const rows: Array<StoredState & { series: string }> = (
      await trx.raw(
        `select series, level, definition, watermark::text as watermark from ${STATE_TABLE}
          where series in (${covered.map(() => '?').join(', ')}) order by series, level for update`,
        covered.map((s) => s.def.code),
      )
    ).rows;
    for (const { series, ...state } of rows) read.get(series)!.push(state);
    const out = new Map<string, LevelState[]>();
    for (const series of covered) {
      const states = read.get(series.def.code)!;
      out.set(
        series.def.code,
        isCurrent(series, states)
          ? states.map(({ level, watermark }) => ({ level, watermark }))
          : await this.lockStates(trx, series),
      );
    }
    return out;
  }

  /** The highest settled row_id of each covered series' table (null: empty), read in one statement. */
  private async maxRowIds(
    trx: Knex.Transaction,
    covered: readonly CompiledSeries[],
  ): Promise<Map<TableDef, string | null>> {
    const tables = [...new Set(covered.map((s) => s.def.table))];
    const out = new Map<TableDef, string | null>();
    if (tables.length === 0) return out;
    const selects = tables.map((t, i) => `${settledMaxRowId(t).sql}::text as "m${i}"`);
    const [row] = (await trx.raw(`select ${selects.join(', ')}`)).rows as Array<Record<string, string | null>>;
    tables.forEach((t, i) => out.set(t, row[`m${i}`]));
    return out;
  }

  /** The levels' states, locked for this transaction; missing or outdated levels are (re)built first. */
  private async lockStates(trx: Knex.Transaction, series: CompiledSeries): Promise<LevelState[]> {
    const read = async (): Promise<StoredState[]> =>
      (
        await trx.raw(
          `select level, definition, watermark::text as watermark from ${STATE_TABLE} where series = ? order by level for update`,
          [series.def.code],
        )
      ).rows;
    let states = await read();
    if (!isCurrent(series, states)) {
      await this.ensureSeries(trx, series);
      states = await read();
    }
    return states.map(({ level, watermark }) => ({ level, watermark }));
  }

  private async ensureStateTable(trx: Knex.Transaction): Promise<void> {
    if ((await trx.raw('select to_regclass(?) is not null as ok', [STATE_TABLE])).rows[0].ok) return;
    await trx.raw(
      `create table if not exists ${STATE_TABLE} (
         series text not null, level text not null, definition text not null,
         watermark bigint not null default 0, updated_at timestamptz not null default now(),
         primary key (series, level))`,
    );
  }

  private async ensureSeries(trx: Knex.Transaction, series: CompiledSeries): Promise<void> {
    const states = await trx.raw(`select level, definition from ${STATE_TABLE} where series = ?`, [series.def.code]);
    const known = new Map<string, string>(
      states.rows.map((r: { level: string; definition: string }) => [r.level, r.definition]),
    );
    for (const level of ROLLUP_LEVELS) {
      const table = rollupTable(series, level);
      const exists = (await trx.raw('select to_regclass(?) is not null as ok', [table])).rows[0].ok;
      if (exists && known.get(level) === definitionHash(series, level)) continue;
      await trx.raw(`drop table if exists ${table}`);
      const columns = series.partials.map((p) => `${quote(p.name)} ${p.ddl}`);
      const partition = series.def.partition.map((c) => `${quote(c.name)} ${c.type.sqlType}`);
      const key = [...series.partitionRefs, '"b"'].join(', ');
      await trx.raw(
        `create table ${table} (${[...partition, '"b" timestamptz not null', ...columns, `primary key (${key})`].join(', ')})`,
      );
      if (series.heightRef) await trx.raw(`create index on ${table} ("mh")`);
      await trx.raw(
        `insert into ${STATE_TABLE} (series, level, definition, watermark) values (?, ?, ?, 0)
         on conflict (series, level) do update set definition = excluded.definition, watermark = 0, updated_at = now()`,
        [series.def.code, level, definitionHash(series, level)],
      );
    }
  }

  /**
   * Aggregates the selected raw rows into level buckets and merges them into the stored ones; answers
   * the span of buckets it changed (null: no row).
   */
  private fold(
    trx: Knex.Transaction,
    series: CompiledSeries,
    level: RollupLevel,
    where: string,
    bindings: readonly Knex.Value[],
  ): Promise<BucketSpan | null> {
    const t = series.def.table;
    const bucket = Collapse.of(level).bucketSql(series.timeRef);
    const raw = series.partials.map((p) => `${p.raw} as ${quote(p.name)}`);
    const conditions = [
      where,
      `${series.timeRef} is not null`,
      ...(series.excludedRows ? [`not (${series.excludedRows})`] : []),
    ];
    if (series.rowsWhere) conditions.push(series.rowsWhere);
    const source = `select ${[...series.partitionRefs, `${bucket} as "b"`, ...raw].join(', ')} from ${quote(t.schema)}.${quote(t.storage)} where ${conditions.join(' and ')}`;
    const merged = series.partials.map((p) => `${quote(p.name)} = ${p.upsert}`).join(', ');
    return this.storeBuckets(trx, series, level, [...series.partitionRefs, '"b"'].join(', '), source, merged, bindings);
  }

  /**
   * Recomputes the buckets of a coarser level that hold a span of a finer level's buckets, from all
   * the finer buckets inside them (complete: the finer level is up to date), replacing the stored
   * ones; the partials merge as they do over raw rows. Answers the span of coarse buckets changed.
   */
  private refold(
    trx: Knex.Transaction,
    series: CompiledSeries,
    finer: RollupLevel,
    coarse: RollupLevel,
    changed: BucketSpan,
  ): Promise<BucketSpan | null> {
    const bucket = (ref: string): string => Collapse.of(coarse).bucketSql(ref);
    const names = series.partials.map((p) => quote(p.name));
    const source = `select ${bucket('"b"')} as "b", ${names.join(', ')} from ${rollupTable(series, finer)}
                     where "b" >= ${bucket('to_timestamp(?)')} and ${bucket('"b"')} <= ${bucket('to_timestamp(?)')}`;
    const replaced = names.map((n) => `${n} = excluded.${n}`).join(', ');
    return this.storeBuckets(trx, series, coarse, '"b"', source, replaced, [changed.lo, changed.hi]);
  }

  /**
   * Merges the partials of `source` (rows of bucketed partials) by `key` into a level's rollup, a
   * stored bucket taking `onConflict`; answers the span of buckets written.
   */
  private async storeBuckets(
    trx: Knex.Transaction,
    series: CompiledSeries,
    level: RollupLevel,
    key: string,
    source: string,
    onConflict: string,
    bindings: readonly Knex.Value[],
  ): Promise<BucketSpan | null> {
    const names = series.partials.map((p) => quote(p.name)).join(', ');
    const result = await trx.raw(
      `with changed as (
         insert into ${rollupTable(series, level)} as r (${key}, ${names})
         select ${key}, ${series.partials.map((p) => p.merge).join(', ')} from (${source}) p group by ${key}
         on conflict (${key}) do update set ${onConflict}
         returning "b")
       select extract(epoch from min("b"))::float8 as lo, extract(epoch from max("b"))::float8 as hi from changed`,
      bindings,
    );
    const { lo, hi } = result.rows[0] as { lo: number | null; hi: number | null };
    return lo === null || hi === null ? null : { lo: Number(lo), hi: Number(hi) };
  }
}

/** The first and last bucket start a fold changed, in Unix seconds (bucket starts are whole seconds). */
interface BucketSpan {
  lo: number;
  hi: number;
}

function widen(a: BucketSpan | null, b: BucketSpan | null): BucketSpan | null {
  if (!a || !b) return a ?? b;
  return { lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) };
}

/** `"schema"."rollup_<series>_<level>"`; long names are shortened with a hash to stay within 63 bytes. */
export function rollupTable(series: CompiledSeries, level: RollupLevel): string {
  let name = `rollup_${series.def.code}_${level}`;
  if (name.length > 63) name = `${name.slice(0, 50)}_${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
  return `${quote(series.def.table.schema)}.${quote(name)}`;
}

export function definitionHash(series: CompiledSeries, level: RollupLevel): string {
  const t = series.def.table;
  const shape = [
    FORMAT,
    level,
    t.schema,
    t.storage,
    series.timeRef,
    series.heightRef,
    series.excludedRows,
    series.partials.map((p) => [p.name, p.ddl, p.raw]),
  ];
  // Unpartitioned rollups keep the hash they always had (no rebuild of existing instances).
  if (series.partitionRefs.length > 0) shape.push(series.def.partition.map((c) => [c.name, c.type.sqlType]));
  // Rows that settle late were folded too early before (a block's slots): their rollups are rebuilt once.
  if (t.settlesAfter > 0) shape.push(`settles_after ${t.settlesAfter}`);
  if (series.rowsWhere) shape.push(`where ${series.rowsWhere}`);
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
}

export function isMissingTable(e: unknown): boolean {
  return (e as { code?: unknown })?.code === '42P01';
}

/**
 * The highest row id of `t` whose row no longer changes: every row, or for a table whose rows settle
 * after later blocks (`settlesAfter`) the rows at least that many blocks below `height` (by default
 * the newest main-chain block's); null when there is none.
 */
function settledMaxRowId(t: TableDef, height?: number): { sql: string; bindings: number[] } {
  const table = `${quote(t.schema)}.${quote(t.storage)}`;
  if (t.settlesAfter === 0) return { sql: `(select max("row_id") from ${table})`, bindings: [] };
  const h = quote(t.heightColumn!);
  if (height !== undefined)
    return { sql: `(select max("row_id") from ${table} where ${h} <= ?)`, bindings: [height - t.settlesAfter] };
  const main = t.orphanColumn ? ` where not ${quote(t.orphanColumn)}` : '';
  return {
    sql: `(select max("row_id") from ${table} where ${h} <= (select max(${h}) from ${table}${main}) - ${t.settlesAfter})`,
    bindings: [],
  };
}
