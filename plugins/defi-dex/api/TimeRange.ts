import { ApiError, Collapse, COLLAPSE_CODES, SeriesWindow } from '../../../framework';

/**
 * The `range` and `interval` parameters of candles and price history.
 *
 * range: `[n]unit`, unit m (minutes), h, d, w, M (calendar months) or y, n 1..9999 (default 1): the
 * window ends now and reaches back that far (`M` = one month, `24h`, `7d`, `3M`). Default `M`.
 *
 * interval: a bucket width, `m`, `h`, `d`, `w`, `M`, `y` (one unit) or one of the series collapse
 * codes (`5m`, `15m`, `4h`, `1d`, `3M` …). Buckets are UTC, weeks start on Monday, months on the 1st.
 * Default `d`.
 */
const RANGE = /^(\d{1,4})?([mhdwMy])$/;
const MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The buckets of a window: from the first's start to the end of the one holding `now` (unix ms). */
export interface BucketWindow extends SeriesWindow {
  readonly collapse: Collapse;
}

/** The window's start: `now` minus the range (calendar-correct for months and years). */
export function rangeStart(arg: string | undefined, now: number): number {
  const m = RANGE.exec(arg ?? 'M');
  if (!m)
    throw ApiError.badQuery(`invalid range '${arg}': expected [n]unit with unit m, h, d, w, M or y (e.g. M, 24h, 7d)`);
  const n = Number(m[1] ?? '1');
  if (n === 0) throw ApiError.badQuery(`invalid range '${arg}': must be at least 1`);
  if (MS[m[2]]) return now - n * MS[m[2]];
  const d = new Date(now);
  const months = m[2] === 'y' ? 12 * n : n;
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() - months,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

export function parseInterval(arg: string | undefined): Collapse {
  const code = arg === undefined || arg === '' ? '1d' : /^[mhdwMy]$/.test(arg) ? `1${arg}` : arg;
  const known = COLLAPSE_CODES.find((c) => c === code);
  if (known === undefined) {
    throw ApiError.badQuery(
      `invalid interval '${arg}': expected m, h, d, w, M, y or one of ${COLLAPSE_CODES.join(', ')}`,
    );
  }
  return Collapse.of(known);
}

/** The buckets from the range's start to now's bucket, at most `limit` of them (the latest). */
export function bucketWindow(
  range: string | undefined,
  interval: string | undefined,
  limit: number,
  now: number,
): BucketWindow {
  const collapse = parseInterval(interval);
  const last = collapse.truncate(now);
  let from = collapse.truncate(rangeStart(range, now));
  if (limit > 0 && collapse.add(last, -(limit - 1)) > from) from = collapse.add(last, -(limit - 1));
  // Nothing is older than the unix epoch; far older bounds would also leave the databases' date range.
  from = Math.max(from, collapse.truncate(0));
  return { collapse, from, to: collapse.add(last, 1) };
}
