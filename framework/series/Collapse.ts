import { ApiError } from '../errors/ApiError';
import { addUnits, truncateUtc } from '../time/TimeExpression';

type Unit = 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

const SECONDS: Partial<Record<Unit, number>> = { m: 60, h: 3_600, d: 86_400, w: 604_800 };
/** Monday 1970-01-05: weeks are ISO weeks; minutes, hours and days align to the unix epoch (UTC midnight). */
const WEEK_ORIGIN = "timestamptz '1970-01-05 00:00:00+00'";
const EPOCH_ORIGIN = "timestamptz '1970-01-01 00:00:00+00'";
const CALENDAR_SQL: Record<string, string> = { '1M': 'month', '3M': 'quarter', '1y': 'year' };

export const COLLAPSE_CODES = [
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '3h',
  '4h',
  '6h',
  '12h',
  '1d',
  '1w',
  '1M',
  '3M',
  '1y',
] as const;
export type CollapseCode = (typeof COLLAPSE_CODES)[number];

/** Rollup granularities, finest first. */
export const ROLLUP_LEVELS = ['1m', '1h', '1d'] as const;
export type RollupLevel = (typeof ROLLUP_LEVELS)[number];

/**
 * One time-series interval: all buckets are UTC, weeks start on Monday (ISO 8601), months, quarters
 * and years are calendar-correct. The same bucketing exists twice, in JS (windows, gap filling) and in
 * SQL (grouping); tests hold the two equal.
 */
export class Collapse {
  private constructor(
    readonly code: CollapseCode,
    private readonly n: number,
    private readonly unit: Unit,
  ) {}

  static parse(arg: string | undefined): Collapse {
    if (arg === undefined || arg === '') return Collapse.of('1m');
    if (!(COLLAPSE_CODES as readonly string[]).includes(arg)) {
      throw ApiError.badQuery(`invalid collapse '${arg}': expected one of ${COLLAPSE_CODES.join(', ')}`);
    }
    return Collapse.of(arg as CollapseCode);
  }

  static of(code: CollapseCode): Collapse {
    return new Collapse(code, Number(code.slice(0, -1)), code.slice(-1) as Unit);
  }

  /** The coarsest rollup level whose buckets tile this collapse's buckets exactly. */
  get level(): RollupLevel {
    if (this.unit === 'm') return '1m';
    if (this.unit === 'h') return '1h';
    return '1d';
  }

  /** Start (unix ms) of the bucket containing `ms`. */
  truncate(ms: number): number {
    const seconds = SECONDS[this.unit];
    if (this.unit === 'w') return truncateUtc(new Date(ms), 'w').getTime();
    if (seconds !== undefined) {
      const width = this.n * seconds * 1000;
      return ms - (((ms % width) + width) % width);
    }
    const d = new Date(ms);
    if (this.unit === 'y') return Date.UTC(d.getUTCFullYear(), 0, 1);
    const month = d.getUTCMonth() - (d.getUTCMonth() % this.n);
    return Date.UTC(d.getUTCFullYear(), month, 1);
  }

  /** Start of the bucket `k` buckets after (k < 0: before) the bucket starting at `start`. */
  add(start: number, k: number): number {
    const seconds = SECONDS[this.unit];
    if (seconds !== undefined) return start + k * this.n * seconds * 1000;
    return addUnits(new Date(start), k * this.n, this.unit as 'M' | 'y').getTime();
  }

  /** SQL for the bucket start (timestamptz) of a timestamptz expression. */
  bucketSql(ref: string): string {
    const calendar = CALENDAR_SQL[this.code];
    if (calendar) return `date_trunc('${calendar}', ${ref}, 'UTC')`;
    const seconds = this.n * SECONDS[this.unit]!;
    return `date_bin('${seconds} seconds'::interval, ${ref}, ${this.unit === 'w' ? WEEK_ORIGIN : EPOCH_ORIGIN})`;
  }
}
