import { FixedType } from '../catalog/types/FixedType';
import { RawRow } from '../query/TableQueryEngine';
import { Measure } from './CompiledSeries';
import { FillMode, SeriesRequest } from './SeriesRequest';

type Filler = (mode: FillMode, t: number, prev: RawRow | undefined, next: RawRow | undefined, at: number) => string | null;

/**
 * Gap filling for clients that want one row per bucket (`fill` other than `none`). The buckets are
 * those of the window the answer covers (at most `limit`: from the window's start for asc, from its
 * end for desc); a missing one gets nulls (`null`), zeros (`zero`), the previous bucket's values
 * (`last`) or values interpolated in time between the neighbouring buckets (`linear`). Without an
 * earlier neighbour `last` and `linear` give nulls; without a later one `linear` acts as `last`.
 * Neighbours are looked for among the buckets the query returned.
 */
export function fillGaps(rows: readonly RawRow[], req: SeriesRequest): RawRow[] {
  if (req.fill === 'none') return [...rows];
  const { collapse, window, limit } = req;
  const data = req.order === 'asc' ? rows : [...rows].reverse();
  const slots: number[] = [];
  if (req.order === 'asc') {
    for (let t = window.from; t < window.to && slots.length < limit; t = collapse.add(t, 1)) slots.push(t);
  } else {
    for (let t = collapse.add(window.to, -1); t >= window.from && slots.length < limit; t = collapse.add(t, -1)) slots.push(t);
    slots.reverse();
  }
  const fillers = req.measures.map(filler);
  const out: RawRow[] = [];
  let i = 0;
  for (const t of slots) {
    while (i < data.length && Number(data[i][0]) < t) i++;
    if (i < data.length && Number(data[i][0]) === t) {
      out.push(data[i]);
      continue;
    }
    const prev = i > 0 ? data[i - 1] : undefined;
    const next = data[i];
    out.push([String(t), ...fillers.map((f, k) => f(req.fill, t, prev, next, k + 1))]);
  }
  return req.order === 'asc' ? out : out.reverse();
}

function filler(m: Measure): Filler {
  const scale = m.output.type instanceof FixedType ? m.output.type.decimals : 0;
  const zero = m.kind === 'decimal' && scale > 0 ? `0.${'0'.repeat(scale)}` : '0';
  return (mode, t, prev, next, at) => {
    switch (mode) {
      case 'zero':
        return zero;
      case 'last':
        return prev?.[at] ?? null;
      case 'linear': {
        if (!prev) return null;
        if (!next) return prev[at];
        const [a, b] = [prev[at], next[at]];
        if (a === null || b === null) return null;
        const [ta, tb] = [Number(prev[0]), Number(next[0])];
        return m.kind === 'float' ? floatBetween(a, b, t - ta, tb - ta) : exactBetween(a, b, t - ta, tb - ta, scale);
      }
      default:
        return null;
    }
  };
}

function floatBetween(a: string, b: string, num: number, den: number): string | null {
  const v = Number(a) + ((Number(b) - Number(a)) * num) / den;
  return Number.isFinite(v) ? String(v) : null;
}

/** Integers and fixed decimals interpolate exactly, rounded half away from zero to the column's scale. */
function exactBetween(a: string, b: string, num: number, den: number, scale: number): string {
  const x = scaled(a, scale);
  const q = (scaled(b, scale) - x) * BigInt(num);
  const d = BigInt(den);
  const rem = q % d;
  const step = q / d + ((rem < 0n ? -rem : rem) * 2n >= d ? (q < 0n ? -1n : 1n) : 0n);
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
