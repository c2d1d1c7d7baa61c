import { SeriesDef } from '../../framework/catalog/CatalogModel';
import { BigIntType } from '../../framework/catalog/types/BigIntType';
import { BoolType } from '../../framework/catalog/types/BoolType';
import { ColumnType } from '../../framework/catalog/types/ColumnType';
import { FixedType } from '../../framework/catalog/types/FixedType';
import { Float64Type } from '../../framework/catalog/types/Float64Type';
import { MoneyType } from '../../framework/catalog/types/MoneyType';
import { tez } from '../support/SampleTable';

/**
 * A naive re-aggregation of rows into time-series buckets, written without the engine's code: UTC
 * calendar arithmetic on plain numbers, aggregation over JS arrays. Every series test compares the
 * API against this.
 */

export type Agg = 'sum' | 'count' | 'first' | 'last' | 'min' | 'max' | 'mean' | 'wmean';
/**
 * Stored type of an aggregated column: integers and mutez as bigint, fixed decimals as text, floats as
 * number; `bigint` columns (raw token amounts) are integers answered as strings.
 */
export type Kind = 'int' | 'bigint' | 'money' | 'float' | 'bool' | { fixed: number };

export interface OracleMeasure {
  name: string;
  agg: Agg;
  source?: string;
  kind?: Kind;
  /** `wmean`: the weighing column and its kind. */
  weight?: string;
  weightKind?: Kind;
}

/** The oracle's kind of a catalog column type (fixed(n) and decimal(n) alike). */
export function kindOf(type: ColumnType): Kind {
  if (type instanceof MoneyType) return 'money';
  if (type instanceof BoolType) return 'bool';
  if (type instanceof FixedType) return { fixed: type.decimals };
  if (type instanceof Float64Type) return 'float';
  if (type instanceof BigIntType) return 'bigint';
  return 'int';
}

/** The oracle's view of a catalog series, from the declared column types. */
export function measuresOf(def: SeriesDef): OracleMeasure[] {
  return def.columns.map((c) => ({
    name: c.name,
    agg: c.agg,
    source: c.source?.name,
    kind: c.source ? kindOf(c.source.type) : undefined,
    weight: c.weight?.name,
    weightKind: c.weight ? kindOf(c.weight.type) : undefined,
  }));
}

/** A table row as the test inserted it: `time` in unix ms, `row_id` as the database assigned it. */
export type OracleRow = { row_id: number; time: number } & Record<string, unknown>;

/** An expected cell: exact, or a float compared with a relative tolerance. */
export type Cell = number | string | null | { approx: number };

export type Fill = 'none' | 'null' | 'last' | 'linear' | 'zero';

const MINUTE = 60_000;
const DAY = 86_400_000;
const FIXED_WIDTH: Record<string, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '3h': 180 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': DAY,
};
const MONTHS: Record<string, number> = { '1M': 1, '3M': 3, '1y': 12 };

/** Start of the bucket holding `ms`. 1970-01-01 was a Thursday, so day d is weekday (d + 3) % 7 counted from Monday. */
export function bucketOf(ms: number, collapse: string): number {
  const width = FIXED_WIDTH[collapse];
  if (width) return Math.floor(ms / width) * width;
  if (collapse === '1w') {
    const day = Math.floor(ms / DAY);
    return (day - ((((day + 3) % 7) + 7) % 7)) * DAY;
  }
  const [y, m] = new Date(ms).toISOString().slice(0, 7).split('-').map(Number);
  const step = MONTHS[collapse];
  return Date.UTC(y, Math.floor((m - 1) / step) * step, 1);
}

/** The bucket start k buckets after the bucket starting at `start`. */
export function bucketAdd(start: number, k: number, collapse: string): number {
  const width = FIXED_WIDTH[collapse];
  if (width) return start + k * width;
  if (collapse === '1w') return start + k * 7 * DAY;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k * MONTHS[collapse], 1);
}

/** The spec's window rules, as [from, to) bucket boundaries. */
export function windowOf(
  collapse: string,
  limit: number,
  start: number | undefined,
  end: number | undefined,
  now: number,
): [number, number] {
  if (start !== undefined && end !== undefined)
    return [bucketOf(start, collapse), bucketAdd(bucketOf(end, collapse), 1, collapse)];
  if (start !== undefined) return [bucketOf(start, collapse), bucketAdd(bucketOf(start, collapse), limit, collapse)];
  const to = bucketAdd(bucketOf(end ?? now, collapse), 1, collapse);
  return [bucketAdd(to, -limit, collapse), to];
}

export interface OracleQuery {
  collapse: string;
  from: number;
  to: number;
  order: 'asc' | 'desc';
  limit: number;
  fill: Fill;
  /** Rows the request's filters keep. */
  keep?: (r: OracleRow) => boolean;
}

type Exact = bigint | number | null;

interface Bucket {
  time: number;
  values: Exact[];
}

/** Expected JSON rows `[time, …measures]` of a series request. */
export function expectedSeries(
  rows: readonly OracleRow[],
  measures: readonly OracleMeasure[],
  q: OracleQuery,
): Cell[][] {
  const groups = new Map<number, OracleRow[]>();
  for (const r of rows) {
    if (r.time < q.from || r.time >= q.to || (q.keep && !q.keep(r))) continue;
    const b = bucketOf(r.time, q.collapse);
    if (!groups.has(b)) groups.set(b, []);
    groups.get(b)!.push(r);
  }
  const asc: Bucket[] = [...groups.keys()]
    .sort((a, b) => a - b)
    .map((time) => ({ time, values: measures.map((m) => aggregate(groups.get(time)!, m)) }));
  // What the engine reads: at most `limit` non-empty buckets from the requested end of the window.
  const returned = q.order === 'asc' ? asc.slice(0, q.limit) : asc.slice(Math.max(0, asc.length - q.limit));
  const buckets = q.fill === 'none' ? returned : filled(returned, measures, q);
  const ordered = q.order === 'asc' ? buckets : [...buckets].reverse();
  return ordered.slice(0, q.limit).map((b) => [b.time, ...b.values.map((v, i) => encode(v, measures[i]))]);
}

function filled(data: Bucket[], measures: readonly OracleMeasure[], q: OracleQuery): Bucket[] {
  const slots: number[] = [];
  if (q.order === 'asc')
    for (let t = q.from; t < q.to && slots.length < q.limit; t = bucketAdd(t, 1, q.collapse)) slots.push(t);
  else {
    for (
      let t = bucketAdd(q.to, -1, q.collapse);
      t >= q.from && slots.length < q.limit;
      t = bucketAdd(t, -1, q.collapse)
    )
      slots.push(t);
    slots.reverse();
  }
  return slots.map((t) => {
    const hit = data.find((b) => b.time === t);
    if (hit) return hit;
    const prev = [...data].reverse().find((b) => b.time < t);
    const next = data.find((b) => b.time > t);
    return {
      time: t,
      values: measures.map((m, i): Exact => {
        switch (q.fill) {
          case 'null':
            return null;
          case 'zero':
            return outputKind(m) === 'float' ? 0 : 0n;
          case 'last':
            return prev ? prev.values[i] : null;
          default: {
            if (!prev) return null;
            if (!next) return prev.values[i];
            const [a, b] = [prev.values[i], next.values[i]];
            if (a === null || b === null) return null;
            if (typeof a === 'number') return a + ((Number(b) - a) * (t - prev.time)) / (next.time - prev.time);
            return a + roundDiv(((b as bigint) - a) * BigInt(t - prev.time), BigInt(next.time - prev.time));
          }
        }
      }),
    };
  });
}

/** Output kinds: integers (counts, integer sums and extremes), mutez, fixed decimals (scaled bigint) or floats. */
function outputKind(m: OracleMeasure): 'int' | 'bigint' | 'money' | 'float' | { fixed: number } {
  if (m.agg === 'count') return 'int';
  const k = m.kind!;
  const exact = k === 'money' || k === 'bigint' || typeof k === 'object';
  if (m.agg === 'mean' || m.agg === 'wmean') return exact ? k : 'float';
  return k === 'bool' ? 'int' : k;
}

function aggregate(group: OracleRow[], m: OracleMeasure): Exact {
  if (m.agg === 'count') return BigInt(group.length);
  const k = m.kind!;
  const read = (r: OracleRow, column: string, kind: Kind): Exact => {
    const v = r[column];
    if (v === null || v === undefined) return null;
    if (kind === 'bool') return v ? 1n : 0n;
    if (typeof kind === 'object') return scaled(v as string, kind.fixed);
    return v as bigint | number;
  };
  const value = (r: OracleRow): Exact => read(r, m.source!, k);
  if (m.agg === 'wmean')
    return weighted(
      group.map((r) => [value(r), read(r, m.weight!, m.weightKind!)]),
      outputKind(m) === 'float',
    );
  const byKey = [...group].sort((a, b) => a.time - b.time || a.row_id - b.row_id);
  if (m.agg === 'first') return value(byKey[0]);
  if (m.agg === 'last') return value(byKey[byKey.length - 1]);
  const present = group.map(value).filter((v): v is bigint | number => v !== null);
  if (present.length === 0) return null;
  const less = (a: bigint | number, b: bigint | number): boolean => a < b;
  if (m.agg === 'min') return present.reduce((a, b) => (less(b, a) ? b : a));
  if (m.agg === 'max') return present.reduce((a, b) => (less(a, b) ? b : a));
  const sum =
    typeof present[0] === 'number'
      ? (present as number[]).reduce((a, b) => a + b, 0)
      : (present as bigint[]).reduce((a, b) => a + b, 0n);
  if (m.agg === 'sum') return sum;
  // mean
  if (outputKind(m) === 'float') return Number(sum) / present.length;
  return roundDiv(sum as bigint, BigInt(present.length));
}

/** Σ(value·weight) / Σ(weight) over the pairs where both are known; null when the weights sum to 0. */
function weighted(pairs: Array<[Exact, Exact]>, float: boolean): Exact {
  const known = pairs.filter(([v, w]) => v !== null && w !== null) as Array<[bigint | number, bigint | number]>;
  if (float) {
    const den = known.reduce((a, [, w]) => a + Number(w), 0);
    return known.length === 0 || den === 0 ? null : known.reduce((a, [v, w]) => a + Number(v) * Number(w), 0) / den;
  }
  const den = known.reduce((a, [, w]) => a + BigInt(w), 0n);
  return den === 0n
    ? null
    : roundDiv(
        known.reduce((a, [v, w]) => a + BigInt(v) * BigInt(w), 0n),
        den,
      );
}

function encode(v: Exact, m: OracleMeasure): Cell {
  if (v === null) return null;
  const kind = outputKind(m);
  if (kind === 'float') return { approx: Number(v) };
  if (kind === 'money') return Number(tez(v as bigint));
  if (kind === 'bigint') return String(v);
  if (typeof kind === 'object') return unscaled(v as bigint, kind.fixed);
  return Number(v);
}

/** Half away from zero, as SQL round(). */
export function roundDiv(q: bigint, d: bigint): bigint {
  const r = q / d;
  const rem = q % d;
  const twice = (rem < 0n ? -rem : rem) * 2n;
  return twice >= d ? r + (q < 0n ? -1n : 1n) : r;
}

function scaled(text: string, decimals: number): bigint {
  const negative = text.startsWith('-');
  const [int, frac = ''] = (negative ? text.slice(1) : text).split('.');
  const v = BigInt(int) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
  return negative ? -v : v;
}

function unscaled(v: bigint, decimals: number): string {
  const abs = v < 0n ? -v : v;
  const unit = 10n ** BigInt(decimals);
  const fraction = decimals > 0 ? `.${(abs % unit).toString().padStart(decimals, '0')}` : '';
  return `${v < 0n ? '-' : ''}${abs / unit}${fraction}`;
}

/** Asserts rows equal, floats within a relative 1e-9. Returns a message naming the first difference, or undefined. */
export function diffRows(got: unknown[][], expected: Cell[][]): string | undefined {
  if (got.length !== expected.length)
    return `expected ${expected.length} rows, got ${got.length}: first got ${JSON.stringify(got.slice(0, 3))}, expected ${JSON.stringify(expected.slice(0, 3))}`;
  for (let i = 0; i < got.length; i++) {
    if (got[i].length !== expected[i].length) return `row ${i}: width ${got[i].length} vs ${expected[i].length}`;
    for (let j = 0; j < got[i].length; j++) {
      const e = expected[i][j];
      const g = got[i][j];
      const same =
        e !== null && typeof e === 'object'
          ? typeof g === 'number' && Math.abs(g - e.approx) <= 1e-9 * Math.max(1, Math.abs(e.approx))
          : g === e;
      if (!same)
        return `row ${i} (${new Date(Number(got[i][0])).toISOString()}) column ${j}: got ${JSON.stringify(g)}, expected ${JSON.stringify(e)}`;
    }
  }
  return undefined;
}
