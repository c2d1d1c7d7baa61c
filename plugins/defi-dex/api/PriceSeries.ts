import { ApiError, FILL_MODES, FillMode, fillGaps, GapRule, RawRow, rfc3339 } from '../../../framework';
import { decimal, SCALE, scaled, unitPrice, units } from '../../../framework/defi';
import type { PoolInfo } from './PoolBook';
import type { BucketWindow } from './TimeRange';
import type { Bucket, LastTrade } from './TradeSeries';

/** Fields of `select`: price levels (price = close) and whole-token volumes. */
const LEVELS = ['price', 'open', 'high', 'low', 'close', 'vwap'] as const;
const VOLUMES = ['vol_base', 'vol_quote'] as const;
const FIELDS = [...LEVELS, ...VOLUMES];
export const PRICE_FIELDS: readonly string[] = FIELDS;
type Field = (typeof FIELDS)[number];

export function parseSelect(arg: string | undefined): Field[] {
  if (arg === undefined || arg === '') return ['price'];
  const fields = arg.split(',').map((raw) => {
    const f = raw.trim();
    const field = FIELDS.find((x) => x === f);
    if (field === undefined)
      throw ApiError.badQuery(`invalid select field '${f}': expected ${PRICE_FIELDS.join(', ')}`);
    return field;
  });
  if (new Set(fields).size !== fields.length) throw ApiError.badQuery(`select names a field twice: '${arg}'`);
  return fields;
}

export function parseFill(arg: string | undefined): FillMode {
  if (arg === undefined || arg === '') return 'none';
  const mode = FILL_MODES.find((m) => m === arg);
  if (mode === undefined) throw ApiError.badQuery(`invalid fill '${arg}': expected ${FILL_MODES.join(', ')}`);
  return mode;
}

/**
 * How the series engine fills a bucket without trades (framework/series/SeriesFill): under `last`
 * every price level repeats the previous close; under `linear` each level is interpolated in time
 * between the neighbouring buckets (truncated, as all DEX decimals), or repeats the previous close
 * without a later one; volumes are 0 under both.
 */
const CLOSE_AT = 1 + FIELDS.indexOf('close');
const GAP_RULES: GapRule[] = FIELDS.map((f) =>
  VOLUMES.some((v) => v === f)
    ? { kind: 'decimal', scale: SCALE, flow: true }
    : { kind: 'decimal', scale: SCALE, carry: CLOSE_AT, truncate: true },
);

/**
 * Price history as `{series: [{name, columns, values}]}`: one series named after the pool, columns
 * `time` then the selected fields, values one array per column, one entry per bucket (6 decimals).
 * Gaps are filled as `fill` asks (GAP_RULES); the last trade before the window, as a bucket whose
 * levels are all its price, is the earlier neighbour of the first gaps.
 */
export function priceSeries(
  pool: PoolInfo,
  buckets: readonly Bucket[],
  window: BucketWindow,
  before: LastTrade | undefined,
  select: readonly Field[],
  fill: FillMode,
): unknown {
  const [da, db] = [pool.decimals('a'), pool.decimals('b')];
  const row = (start: number, v: Record<Field, bigint>): RawRow => [String(start), ...FIELDS.map((f) => decimal(v[f]))];
  const rows = buckets.map((b) =>
    row(b.start, {
      price: b.close,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      vwap: unitPrice(b.base, da, b.quote, db),
      vol_base: units(b.base, da),
      vol_quote: units(b.quote, db),
    }),
  );
  const p = before?.close ?? 0n;
  const seed =
    before &&
    row(window.collapse.truncate(before.time), {
      price: p,
      open: p,
      high: p,
      low: p,
      close: p,
      vwap: p,
      vol_base: 0n,
      vol_quote: 0n,
    });
  const filled = fillGaps(
    rows,
    { collapse: window.collapse, window, order: 'asc', limit: Number.MAX_SAFE_INTEGER, fill },
    GAP_RULES,
    seed,
  );
  const at = select.map((f) => 1 + FIELDS.indexOf(f));
  return seriesBody(
    pool.address,
    select,
    filled.map((r) => [rfc3339(Number(r[0])), ...at.map((i) => (r[i] === null ? null : decimal(scaled(r[i]!), 6)))]),
  );
}

/** The answer for rows of [time, …select], in the spec sample's layout: one array per column, not one per bucket. */
export function seriesBody(name: string, select: readonly Field[], rows: readonly unknown[][]): unknown {
  const columns = ['time', ...select];
  return { series: [{ name, columns, values: columns.map((_, i) => rows.map((r) => r[i])) }] };
}
