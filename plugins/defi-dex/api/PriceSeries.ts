import { ApiError } from '../../../framework';
import { decimal, unitPrice, units } from './Decimal';
import type { PoolInfo } from './PoolBook';
import type { Bucket, TradePoint } from './TradeBuckets';
import { BucketWindow, rfc3339 } from './TimeRange';

/** Fields of `select`: price levels (price = close) and whole-token volumes. */
const LEVELS = ['price', 'open', 'high', 'low', 'close', 'vwap'] as const;
const VOLUMES = ['vol_base', 'vol_quote'] as const;
export const PRICE_FIELDS: readonly string[] = [...LEVELS, ...VOLUMES];
type Field = (typeof LEVELS)[number] | (typeof VOLUMES)[number];

export const FILLS = ['none', 'null', 'last', 'linear', 'zero'] as const;
export type Fill = (typeof FILLS)[number];

export function parseSelect(arg: string | undefined): Field[] {
  if (arg === undefined || arg === '') return ['price'];
  const fields = arg.split(',').map((f) => f.trim());
  for (const f of fields) if (!PRICE_FIELDS.includes(f)) throw ApiError.badQuery(`invalid select field '${f}': expected ${PRICE_FIELDS.join(', ')}`);
  if (new Set(fields).size !== fields.length) throw ApiError.badQuery(`select names a field twice: '${arg}'`);
  return fields as Field[];
}

export function parseFill(arg: string | undefined): Fill {
  if (arg === undefined || arg === '') return 'none';
  if (!(FILLS as readonly string[]).includes(arg)) throw ApiError.badQuery(`invalid fill '${arg}': expected ${FILLS.join(', ')}`);
  return arg as Fill;
}

type Values = Record<Field, bigint>;
/** A bucket's values (10^18-scaled), or a lone trade's price as every level (the seed before the window). */
type Known = { start: number; values: Values };

/**
 * Price history as `{series: [{name, columns, values}]}`: one series named after the pool, columns
 * `time` then the selected fields, values one array per column, one entry per bucket (6 decimals).
 * Gaps: `none` leaves them out; `null` and `zero` fill every field; `last` repeats the previous close in every level
 * field;
 * `linear` interpolates each level in time between the neighbouring buckets (the last trade before
 * the window counts as a neighbour; without a later one it acts as `last`). Volumes of filled buckets
 * are 0 under last and linear. Without an earlier price, last and linear give null levels.
 */
export function priceSeries(pool: PoolInfo, buckets: readonly Bucket[], window: BucketWindow, before: TradePoint | undefined, select: readonly Field[], fill: Fill): unknown {
  const [da, db] = [pool.decimals('a'), pool.decimals('b')];
  const known: Known[] = buckets.map((b) => ({
    start: b.start,
    values: { price: b.close, open: b.open, high: b.high, low: b.low, close: b.close, vwap: unitPrice(b.base, da, b.quote, db), vol_base: units(b.base, da), vol_quote: units(b.quote, db) },
  }));
  const byStart = new Map(known.map((k) => [k.start, k]));
  const seed: Known | undefined = before && { start: window.collapse.truncate(before.time), values: level(before.price) };
  const rows: unknown[][] = [];
  let prev = seed;
  let next = 0;
  for (let t = window.from; t < window.to; t = window.collapse.add(t, 1)) {
    while (next < known.length && known[next].start <= t) next++;
    const hit = byStart.get(t);
    if (hit) {
      rows.push([rfc3339(t), ...select.map((f) => decimal(hit.values[f], 6))]);
      prev = hit;
      continue;
    }
    if (fill === 'none') continue;
    rows.push([rfc3339(t), ...select.map((f) => gap(f, fill, t, prev, known[next]))]);
  }
  return seriesBody(pool.address, select, rows);
}

/** The answer for rows of [time, …select], in the spec sample's layout: one array per column, not one per bucket. */
export function seriesBody(name: string, select: readonly Field[], rows: readonly unknown[][]): unknown {
  const columns = ['time', ...select];
  return { series: [{ name, columns, values: columns.map((_, i) => rows.map((r) => r[i])) }] };
}

function level(price: bigint): Values {
  return { price, open: price, high: price, low: price, close: price, vwap: price, vol_base: 0n, vol_quote: 0n };
}

function gap(f: Field, fill: Fill, t: number, prev: Known | undefined, next: Known | undefined): string | null {
  if (fill === 'null') return null;
  if (fill === 'zero' || (VOLUMES as readonly string[]).includes(f)) return decimal(0n, 6);
  if (!prev) return null;
  if (fill === 'last' || !next) return decimal(prev.values.close, 6);
  const [a, b] = [prev.values[f], next.values[f]];
  return decimal(a + ((b - a) * BigInt(t - prev.start)) / BigInt(next.start - prev.start), 6);
}
