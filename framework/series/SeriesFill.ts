import { FixedType } from '../catalog/types/FixedType';
import { RawRow } from '../query/TableQueryEngine';
import { Measure, NumberKind } from './CompiledSeries';
import { FillMode, SeriesRequest } from './SeriesRequest';

/** What a gap fill needs of a request: the window's buckets, the order, the limit and the mode. */
export type FillShape = Pick<SeriesRequest, 'collapse' | 'window' | 'order' | 'limit' | 'fill'>;

/** How one column of a row is filled in a bucket without rows; by default from its own neighbours. */
export interface GapRule {
  readonly kind: NumberKind;
  /** Decimal places of the column's values (0: integers). */
  readonly scale: number;
  /** A flow (a volume, a count): 0 under `last` and `linear`, nothing having happened in the bucket. */
  readonly flow?: boolean;
  /**
   * Under `last`, and `linear` without a later neighbour: the previous bucket's value at this position
   * of the row (1 = the first value after the time) instead of the column's own, e.g. every OHLC level
   * of an empty bucket repeats the previous close.
   */
  readonly carry?: number;
  /** `linear` truncates toward zero instead of rounding half away from zero. */
  readonly truncate?: boolean;
}

/** The gap rule of a series measure: its own neighbours, its type's scale. */
export function measureGapRule(m: Measure): GapRule {
  return { kind: m.kind, scale: m.output.type instanceof FixedType ? m.output.type.decimals : 0 };
}

/**
 * Gap filling for clients that want one row per bucket (`fill` other than `none`). The buckets are
 * those of the window the answer covers (at most `limit`: from the window's start for asc, from its
 * end for desc); a missing one gets nulls (`null`), zeros (`zero`), the previous bucket's values
 * (`last`) or values interpolated in time between the neighbouring buckets (`linear`), each column
 * as its GapRule says. Without an earlier neighbour `last` and `linear` give nulls; without a later
 * one `linear` acts as `last`. Neighbours are looked for among the buckets the query returned, and
 * `before` (a row of the bucket before the window, when the caller knows it) is the earliest one.
 */
export function fillGaps(
  rows: readonly RawRow[],
  req: FillShape,
  rules: readonly GapRule[],
  before?: RawRow,
): RawRow[] {
  if (req.fill === 'none') return [...rows];
  const { collapse, window, limit } = req;
  const data = req.order === 'asc' ? rows : [...rows].reverse();
  const slots: number[] = [];
  if (req.order === 'asc') {
    for (let t = window.from; t < window.to && slots.length < limit; t = collapse.add(t, 1)) slots.push(t);
  } else {
    for (let t = collapse.add(window.to, -1); t >= window.from && slots.length < limit; t = collapse.add(t, -1))
      slots.push(t);
    slots.reverse();
  }
  const out: RawRow[] = [];
  let i = 0;
  for (const t of slots) {
    while (i < data.length && Number(data[i][0]) < t) i++;
    if (i < data.length && Number(data[i][0]) === t) {
      out.push(data[i]);
      continue;
    }
    const prev = i > 0 ? data[i - 1] : before;
    const next = data[i];
    out.push([String(t), ...rules.map((rule, k) => gap(rule, req.fill, t, prev, next, k + 1))]);
  }
  return req.order === 'asc' ? out : out.reverse();
}

function gap(
  rule: GapRule,
  mode: FillMode,
  t: number,
  prev: RawRow | undefined,
  next: RawRow | undefined,
  at: number,
): string | null {
  const zero = rule.scale > 0 ? `0.${'0'.repeat(rule.scale)}` : '0';
  if (mode === 'zero' || (rule.flow && mode !== 'null')) return zero;
  if (mode === 'null' || !prev) return null;
  if (mode === 'last' || !next) return prev[rule.carry ?? at];
  const [a, b] = [prev[at], next[at]];
  if (a === null || b === null) return null;
  const [ta, tb] = [Number(prev[0]), Number(next[0])];
  return rule.kind === 'float' ? floatBetween(a, b, t - ta, tb - ta) : exactBetween(a, b, t - ta, tb - ta, rule);
}

function floatBetween(a: string, b: string, num: number, den: number): string | null {
  const v = Number(a) + ((Number(b) - Number(a)) * num) / den;
  return Number.isFinite(v) ? String(v) : null;
}

/** Integers and fixed decimals interpolate exactly, rounded half away from zero (or truncated) to their scale. */
function exactBetween(a: string, b: string, num: number, den: number, { scale, truncate }: GapRule): string {
  const x = scaled(a, scale);
  const q = (scaled(b, scale) - x) * BigInt(num);
  const d = BigInt(den);
  const rem = q % d;
  const step = q / d + (!truncate && (rem < 0n ? -rem : rem) * 2n >= d ? (q < 0n ? -1n : 1n) : 0n);
  return unscaled(x + step, scale);
}

function scaled(text: string, scale: number): bigint {
  const [int, frac = ''] = text.split('.');
  const negative = int.startsWith('-');
  const digits = BigInt((negative ? int.slice(1) : int) + frac.padEnd(scale, '0').slice(0, scale));
  return negative ? -digits : digits;
}

function unscaled(v: bigint, scale: number): string {
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}
