import { ApiError } from '../errors/ApiError';
import { ListProfile, TABLE_PROFILE } from '../query/ListProfile';
import { Filter, parseTableRequest, QueryArgs } from '../query/TableRequest';
import { parseTime, TimeParseError } from '../time/TimeExpression';
import { Collapse } from './Collapse';
import { CompiledSeries, Measure } from './CompiledSeries';

export const FILL_MODES = ['none', 'null', 'last', 'linear', 'zero'] as const;
export type FillMode = (typeof FILL_MODES)[number];

/**
 * The spec gives time-series the tables' limits (aggregated rows): default 500, at most 50000 (clamped), 0 = default;
 * and a series leaves out the rows its table hides (op type `event`) unless a filter names them, as the table does.
 */
export const SERIES_PROFILE: ListProfile = TABLE_PROFILE;

/** The arguments only a series takes; all others go through the tables parser (limit, order, filters). */
const SERIES_KEYS = new Set(['columns', 'collapse', 'start_date', 'end_date', 'fill']);
const TABLE_ONLY_KEYS = ['cursor', 'offset'];

/** The dates accepted (years 1 to 9999); derived window ends are clamped to them. */
const MIN_TIME = Date.parse('0001-01-01T00:00:00Z');
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export interface SeriesWindow {
  /** Inclusive start, a bucket boundary (unix ms). */
  readonly from: number;
  /** Exclusive end, a bucket boundary (unix ms). */
  readonly to: number;
}

export interface SeriesRequest {
  readonly measures: readonly Measure[];
  readonly collapse: Collapse;
  readonly window: SeriesWindow;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly fill: FillMode;
  /** Conditions on any column of the underlying table, parsed exactly as the tables API does. */
  readonly filters: readonly Filter[];
}

/**
 * Validates a series request: columns against the series, collapse/fill/dates by their syntax, and
 * everything else (limit, order, `<column>[.op]=value`) by the tables parser against the series'
 * table, so filters behave identically in both APIs.
 */
export function parseSeriesRequest(
  series: CompiledSeries,
  args: QueryArgs,
  now: Date,
  extraFilters: readonly Filter[] = [],
): SeriesRequest {
  for (const key of TABLE_ONLY_KEYS) {
    if (args[key] !== undefined)
      throw ApiError.invalid(`parameter '${key}' is not supported by time-series (use start_date/end_date)`);
  }
  // Without a prototype, so a `__proto__` argument stays a key the tables parser refuses.
  const tableArgs = Object.create(null) as QueryArgs;
  for (const [key, value] of Object.entries(args)) if (!SERIES_KEYS.has(key)) tableArgs[key] = value;
  const table = parseTableRequest(series.def.table, tableArgs, SERIES_PROFILE);
  const collapse = Collapse.parse(one(args, 'collapse'));
  const start = parseDate(one(args, 'start_date'), 'start_date', now);
  const end = parseDate(one(args, 'end_date'), 'end_date', now);
  if (start !== undefined && end !== undefined && start > end) {
    throw ApiError.invalid(
      `start_date ${new Date(start).toISOString()} is after end_date ${new Date(end).toISOString()}`,
    );
  }
  return {
    measures: parseColumns(series, one(args, 'columns')),
    collapse,
    window: seriesWindow(collapse, table.limit, start, end, now.getTime()),
    order: table.order,
    limit: table.limit,
    fill: parseFill(one(args, 'fill')),
    filters: [...extraFilters, ...table.filters],
  };
}

/**
 * Both ends: the buckets from start's to end's (inclusive). One end: `limit` buckets from start or up
 * to end. Neither: the `limit` buckets up to now (the last 500 minutes by default).
 */
export function seriesWindow(
  collapse: Collapse,
  limit: number,
  start: number | undefined,
  end: number | undefined,
  now: number,
): SeriesWindow {
  if (start !== undefined && end !== undefined)
    return { from: collapse.truncate(start), to: collapse.add(collapse.truncate(end), 1) };
  // A derived end stays on a bucket boundary inside the range both Postgres and JS dates cover.
  if (start !== undefined) {
    const from = collapse.truncate(start);
    return { from, to: Math.min(collapse.add(from, limit), collapse.truncate(MAX_TIME)) };
  }
  const to = collapse.add(collapse.truncate(end ?? now), 1);
  return { from: Math.max(collapse.add(to, -limit), collapse.add(collapse.truncate(MIN_TIME), 1)), to };
}

function one(args: QueryArgs, key: string): string | undefined {
  const v = args[key];
  if (!Array.isArray(v)) return v;
  if (v.length > 1) throw ApiError.badQuery(`parameter '${key}' given more than once`);
  return v[0];
}

function parseDate(arg: string | undefined, key: string, now: Date): number | undefined {
  if (arg === undefined || arg === '') return undefined;
  let ms: number;
  try {
    ms = parseTime(arg, now).getTime();
  } catch (e) {
    if (e instanceof TimeParseError) throw ApiError.badQuery(`invalid ${key} '${arg}': ${e.message}`);
    throw e;
  }
  if (ms < MIN_TIME || ms > MAX_TIME) throw ApiError.badQuery(`invalid ${key} '${arg}': out of range`);
  return ms;
}

function parseFill(arg: string | undefined): FillMode {
  if (arg === undefined || arg === '') return 'none';
  if (!(FILL_MODES as readonly string[]).includes(arg))
    throw ApiError.badQuery(`invalid fill '${arg}': expected one of ${FILL_MODES.join(', ')}`);
  return arg as FillMode;
}

/** `time` is always the first column, whether named or not; the rest come in the order given. */
function parseColumns(series: CompiledSeries, arg: string | undefined): Measure[] {
  if (arg === undefined || arg.trim() === '') return [...series.measures];
  const seen = new Set<string>();
  const out: Measure[] = [];
  for (const raw of arg.split(',')) {
    const name = raw.trim();
    if (seen.has(name)) throw ApiError.invalid(`duplicate column '${name}'`);
    seen.add(name);
    if (name === 'time') continue;
    const m = series.measure(name);
    if (!m) throw ApiError.invalid(`invalid time-series column '${name}'`);
    out.push(m);
  }
  return out;
}
