import { escapeLiteral } from 'pg';
import {
  Aggregation,
  ColumnDef,
  SeriesColumnDef,
  SeriesCondition,
  SeriesDef,
  storedName,
  TableDef,
} from '../catalog/CatalogModel';
import { BigIntType } from '../catalog/types/BigIntType';
import { BoolType } from '../catalog/types/BoolType';
import { ColumnType, Encoding } from '../catalog/types/ColumnType';
import { columnType } from '../catalog/types/ColumnTypes';
import { FixedType } from '../catalog/types/FixedType';
import { Float64Type } from '../catalog/types/Float64Type';
import { Int64Type } from '../catalog/types/Int64Type';
import { MoneyType } from '../catalog/types/MoneyType';
import { Filter } from '../query/TableRequest';
import { columnSql } from '../query/ColumnSql';
import { quote } from '../storage/SchemaMigrator';

/** How a value is computed with when gaps are filled: exact integers, fixed decimals or doubles. */
export type NumberKind = 'integer' | 'decimal' | 'float';

/** One column of a series: the aggregate of a table column (or the row count) per bucket. */
export interface Measure {
  readonly name: string;
  readonly agg: Aggregation;
  /** The aggregated value as a column; its type renders it (money as tez, fixed as a decimal string). */
  readonly output: ColumnDef;
  readonly kind: NumberKind;
  /** Partial aggregates this measure is computed from. */
  readonly partials: readonly PartialColumn[];
  /** SQL of the final value over grouped partial rows, as text for the encoding. */
  value(enc: Encoding): string;
}

/**
 * A partial aggregate: what one raw row contributes, how partials combine into a coarser one, and
 * how a stored rollup bucket absorbs a new partial. Every series value is a function of these, so raw
 * rows, rollup buckets, or a mix of both give the same answer.
 */
export interface PartialColumn {
  readonly name: string;
  readonly ddl: string;
  /** The value for one raw row. */
  readonly raw: string;
  /** Aggregate over partial rows. */
  readonly merge: string;
  /** ON CONFLICT assignment: stored bucket `r` absorbs the new partial `excluded`. */
  readonly upsert: string;
}

const COUNT_TYPE = columnType('uint64');
const FLOAT_TYPE = columnType('float64');

/**
 * A catalog series turned into SQL building blocks. Only numeric columns can be aggregated (bools
 * count as 0/1); anything else is a catalog error reported when the series is compiled.
 */
export class CompiledSeries {
  readonly measures: readonly Measure[];
  /** Every partial of every measure, each once, in a fixed order (the rollup tables' columns). */
  readonly partials: readonly PartialColumn[];
  readonly timeRef: string;
  /** Quoted partition columns: rollup buckets are kept per value combination of these. */
  readonly partitionRefs: readonly string[];
  /** The block height of a raw row, when the table has one: rollups remember it to undo reorgs. */
  readonly heightRef?: string;
  /**
   * Rows no rollup holds: orphans, which a table lists only under a filter on its orphan column, and
   * rows with a column's hidden values (op type `event`), listed only when a filter names them; the
   * request parser leaves those out as it does for tables, so a series counts what its table lists.
   */
  readonly excludedRows?: string;
  /** The series' own row conditions (SeriesDef.where) as SQL: raw reads and rollups hold only such rows. */
  readonly rowsWhere?: string;

  private readonly byName: Map<string, Measure>;

  constructor(readonly def: SeriesDef) {
    const table = def.table;
    this.timeRef = quote(def.timeColumn.name);
    this.partitionRefs = def.partition.map((c) => quote(c.name));
    this.heightRef = table.heightColumn ? quote(table.heightColumn) : undefined;
    const orphans = table.orphanColumn ? [`${quote(table.orphanColumn)} is true`] : [];
    const excluded = [...orphans, ...hiddenRows(table)];
    this.excludedRows = excluded.length > 1 ? excluded.map((c) => `(${c})`).join(' or ') : excluded[0];
    this.rowsWhere = def.where.length > 0 ? def.where.map(conditionSql).join(' and ') : undefined;
    const keys = keyPartials(this.timeRef);
    this.measures = def.columns.map((c, i) => buildMeasure(def, c, i, keys));
    const all = new Map<string, PartialColumn>([['cnt', COUNT_PARTIAL]]);
    if (this.heightRef) all.set('mh', heightPartial(this.heightRef));
    for (const m of this.measures) for (const p of m.partials) all.set(p.name, p);
    this.partials = [...all.values()];
    this.byName = new Map(this.measures.map((m) => [m.name, m]));
  }

  measure(name: string): Measure | undefined {
    return this.byName.get(name);
  }

  /**
   * Whether the rollups can answer under these filters: each an equality on one partition column, or
   * an exclusion that the request parser adds, of a column's hidden values or of orphans (no rollup
   * holds those rows).
   */
  rollupServes(filters: readonly Filter[]): boolean {
    return filters.every((f) => this.partitionEquality(f) || isHiddenExclusion(f) || this.isMainChainOnly(f));
  }

  private isMainChainOnly(f: Filter): boolean {
    const orphan = this.def.table.orphanColumn;
    const named = orphan !== undefined && f.column.name === orphan;
    return named && f.op === 'eq' && f.values.length === 1 && f.values[0] === false;
  }

  /** An equality on one partition column: the rollups keep a bucket per partition. */
  partitionEquality(f: Filter): boolean {
    return f.op === 'eq' && f.values.length === 1 && this.def.partition.includes(f.column);
  }
}

/** `col in (…)` per column with hidden values: the rows lists leave out unless a filter names one. */
function hiddenRows(table: TableDef): string[] {
  return table.columns
    .filter((c) => c.hiddenValues !== undefined && storedName(c) === c.name)
    .map((c) => {
      const values = c.hiddenValues!.map((v) => c.type.literal(v));
      return `${quote(c.name)} in (${values.join(', ')})`;
    });
}

const CONDITION_SQL: Record<SeriesCondition['op'], string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

function conditionSql({ column, op, value }: SeriesCondition): string {
  return `${columnSql(column)} ${CONDITION_SQL[op]} ${escapeLiteral(String(value))}::${column.type.sqlType}`;
}

/** The filter the request parser adds to leave a column's hidden values out (`nin` of exactly those). */
function isHiddenExclusion(f: Filter): boolean {
  const hidden = f.column.hiddenValues?.map((v) => f.column.type.parse(v));
  if (f.op !== 'nin' || hidden === undefined) return false;
  return f.values.length === hidden.length && hidden.every((v) => f.values.includes(v));
}

const COUNT_PARTIAL: PartialColumn = {
  name: 'cnt',
  ddl: 'bigint not null',
  raw: '1',
  merge: 'sum("cnt")',
  upsert: 'r."cnt" + excluded."cnt"',
};

function heightPartial(ref: string): PartialColumn {
  return { name: 'mh', ddl: 'bigint', raw: ref, merge: 'max("mh")', upsert: 'greatest(r."mh", excluded."mh")' };
}

interface KeyPartials {
  first: PartialColumn[];
  last: PartialColumn[];
}

/** The (time, row_id) of a bucket's first and last row: first/last values follow these keys. */
function keyPartials(timeRef: string): KeyPartials {
  const side = (prefix: 'f' | 'l'): PartialColumn[] =>
    [
      { suffix: 't', ddl: 'timestamptz', raw: timeRef },
      { suffix: 'id', ddl: 'bigint', raw: '"row_id"' },
    ].map(({ suffix, ddl, raw }) => ({
      name: `${prefix}${suffix}`,
      ddl,
      raw,
      merge: ordered(prefix, `${prefix}${suffix}`),
      upsert: keyed(prefix, `${prefix}${suffix}`),
    }));
  return { first: side('f'), last: side('l') };
}

/** The value of the partial with the smallest (first) or largest (last) key. */
function ordered(side: 'f' | 'l', column: string): string {
  return side === 'f'
    ? `(array_agg("${column}" order by "ft", "fid"))[1]`
    : `(array_agg("${column}" order by "lt" desc, "lid" desc))[1]`;
}

function keyed(side: 'f' | 'l', column: string): string {
  const cmp = side === 'f' ? '<' : '>';
  return `case when (excluded."${side}t", excluded."${side}id") ${cmp} (r."${side}t", r."${side}id") then excluded."${column}" else r."${column}" end`;
}

function numberKind(t: ColumnType): NumberKind | undefined {
  if (t instanceof FixedType) return 'decimal';
  if (t instanceof Float64Type) return 'float';
  if (t instanceof Int64Type || t instanceof MoneyType || t instanceof BigIntType || t instanceof BoolType)
    return 'integer';
  return undefined;
}

function outputType(agg: Aggregation, source: ColumnType | undefined): ColumnType {
  if (source === undefined) return COUNT_TYPE;
  if (agg === 'mean' || agg === 'wmean') {
    return source instanceof MoneyType || source instanceof FixedType || source instanceof BigIntType
      ? source
      : FLOAT_TYPE;
  }
  return source instanceof BoolType ? COUNT_TYPE : source;
}

function buildMeasure(
  def: SeriesDef,
  { name, agg, source, weight }: SeriesColumnDef,
  i: number,
  keys: KeyPartials,
): Measure {
  for (const c of [source, weight]) {
    if (c && numberKind(c.type) === undefined) {
      throw new Error(
        `series '${def.code}': column '${name}' aggregates '${c.name}' of type ${c.type.name}, which is not numeric`,
      );
    }
  }
  const type = outputType(agg, source?.type);
  const kind = numberKind(type)!;
  const isBool = source?.type instanceof BoolType;
  const v = source ? (isBool ? `${quote(source.name)}::int` : columnSql(source)) : '';
  const valueDdl = isBool ? 'integer' : (source?.type.sqlType ?? '');
  const sumDdl = source?.type instanceof Float64Type ? 'double precision' : 'numeric';
  const part = (
    prefix: string,
    ddl: string,
    raw: string,
    merge: (c: string) => string,
    upsert: (c: string) => string,
  ): PartialColumn => {
    const column = `${prefix}${i}`;
    return { name: column, ddl, raw, merge: merge(`"${column}"`), upsert: upsert(column) };
  };
  const sum = (): PartialColumn =>
    part(
      's',
      sumDdl,
      v,
      (c) => `sum(${c})`,
      (c) => `coalesce(r."${c}" + excluded."${c}", r."${c}", excluded."${c}")`,
    );
  let partials: PartialColumn[];
  let final: string;
  switch (agg) {
    case 'count':
      partials = [COUNT_PARTIAL];
      final = COUNT_PARTIAL.merge;
      break;
    case 'sum':
      partials = [sum()];
      final = partials[0].merge;
      break;
    case 'mean': {
      const n = part(
        'n',
        'bigint',
        `(${v} is not null)::int`,
        (c) => `sum(${c})`,
        (c) => `r."${c}" + excluded."${c}"`,
      );
      partials = [sum(), n];
      // Integer sums divide as numeric (a bigint sum would divide as integers).
      const dividend = source?.type instanceof Float64Type ? partials[0].merge : `${partials[0].merge}::numeric`;
      const quotient = `${dividend} / nullif(${n.merge}, 0)`;
      final = kind === 'float' ? `(${quotient})::float8` : kind === 'integer' ? `round(${quotient})` : quotient;
      break;
    }
    case 'wmean': {
      // Σ(value·weight) / Σ(weight) over the rows where both are known: a VWAP from per-candle VWAPs.
      const w = `${columnSql(weight!)}::numeric`;
      const both = `${v} is not null and ${columnSql(weight!)} is not null`;
      const combine = (c: string): string => `coalesce(r."${c}" + excluded."${c}", r."${c}", excluded."${c}")`;
      const products = part(
        'ws',
        'numeric',
        `case when ${both} then ${v}::numeric * ${w} end`,
        (c) => `sum(${c})`,
        combine,
      );
      const weights = part('wn', 'numeric', `case when ${both} then ${w} end`, (c) => `sum(${c})`, combine);
      partials = [products, weights];
      const quotient = `${products.merge} / nullif(${weights.merge}, 0)`;
      final = kind === 'float' ? `(${quotient})::float8` : kind === 'integer' ? `round(${quotient})` : quotient;
      break;
    }
    case 'min':
      partials = [
        part(
          'lo',
          valueDdl,
          v,
          (c) => `min(${c})`,
          (c) => `least(r."${c}", excluded."${c}")`,
        ),
      ];
      final = partials[0].merge;
      break;
    case 'max':
      partials = [
        part(
          'hi',
          valueDdl,
          v,
          (c) => `max(${c})`,
          (c) => `greatest(r."${c}", excluded."${c}")`,
        ),
      ];
      final = partials[0].merge;
      break;
    case 'first':
    case 'last': {
      const side = agg === 'first' ? 'f' : 'l';
      const value = part(
        side,
        valueDdl,
        v,
        () => ordered(side, `${side}${i}`),
        () => keyed(side, `${side}${i}`),
      );
      partials = [value, ...(side === 'f' ? keys.first : keys.last)];
      final = value.merge;
      break;
    }
  }
  return {
    name,
    agg,
    output: { name, type, nullable: true, description: '', inDefault: true },
    kind,
    partials,
    value: (enc) => type.select(final, enc),
  };
}

const compiled = new WeakMap<SeriesDef, CompiledSeries>();

/** The compiled form of a catalog series (compiled once per definition). */
export function compileSeries(def: SeriesDef): CompiledSeries {
  let c = compiled.get(def);
  if (!c) compiled.set(def, (c = new CompiledSeries(def)));
  return c;
}
