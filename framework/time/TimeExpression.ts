/**
 * Parses the time syntaxes accepted wherever the API takes a time (filters, start_date, end_date):
 * RFC3339 and shorter ISO forms (always UTC unless an offset is given), unix seconds or milliseconds,
 * `now`, `now-24h`, `now+1d`, `now/d`, `now/d-7d`, `today`, `yesterday`, `tomorrow`.
 */
export class TimeParseError extends Error {}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
// Year 9999 in seconds: larger all-digit values are milliseconds.
const MAX_UNIX_SECONDS = 253_402_300_799;

export function parseTime(input: string, now: Date = new Date()): Date {
  const text = input.trim();
  if (text === '') throw new TimeParseError('empty time value');
  const lower = text.toLowerCase();
  if (lower === 'today') return truncateUtc(now, 'd');
  if (lower === 'yesterday') return new Date(truncateUtc(now, 'd').getTime() - UNIT_MS.d);
  if (lower === 'tomorrow') return new Date(truncateUtc(now, 'd').getTime() + UNIT_MS.d);
  if (lower.startsWith('now')) return parseRelative(text.slice(3), now);
  if (/^\d{5,}$/.test(text)) {
    const n = Number(text);
    return checked(new Date(n <= MAX_UNIX_SECONDS ? n * 1000 : n), input);
  }
  const date = ISO_DATE.exec(text);
  if (date) {
    const [, y, m, d] = date;
    return checked(utcDate(Number(y), m ? Number(m) - 1 : 0, d ? Number(d) : 1), input, m, d);
  }
  if (ISO_DATETIME.test(text)) {
    const iso = text.replace(' ', 'T');
    return checked(new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? iso : `${iso}Z`), input);
  }
  throw new TimeParseError(`invalid time '${input}'`);
}

/** `now` suffixes: optional truncation `/unit` then any number of signed durations. */
function parseRelative(rest: string, now: Date): Date {
  let t = now;
  let s = rest;
  const trunc = /^\/([smhdwMy])/.exec(s);
  if (trunc) {
    t = truncateUtc(t, trunc[1] as CalendarUnit);
    s = s.slice(trunc[0].length);
  }
  const step = /^([+-])(\d+)([smhdwMy])/;
  while (s.length > 0) {
    const m = step.exec(s);
    if (!m) throw new TimeParseError(`invalid relative time 'now${rest}'`);
    t = addUnits(t, (m[1] === '-' ? -1 : 1) * Number(m[2]), m[3] as CalendarUnit);
    s = s.slice(m[0].length);
  }
  return t;
}

export type CalendarUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

/** Start of the UTC unit containing t; weeks start on Monday (ISO 8601). */
export function truncateUtc(t: Date, unit: CalendarUnit): Date {
  const ms = t.getTime();
  switch (unit) {
    case 'M':
      return utcDate(t.getUTCFullYear(), t.getUTCMonth(), 1);
    case 'y':
      return utcDate(t.getUTCFullYear(), 0, 1);
    case 'w': {
      const day = truncateUtc(t, 'd');
      const sinceMonday = (day.getUTCDay() + 6) % 7;
      return new Date(day.getTime() - sinceMonday * UNIT_MS.d);
    }
    default:
      return new Date(ms - mod(ms, UNIT_MS[unit]));
  }
}

export function addUnits(t: Date, n: number, unit: CalendarUnit): Date {
  if (unit === 'M' || unit === 'y') {
    const months = unit === 'y' ? n * 12 : n;
    const d = new Date(t.getTime());
    d.setUTCMonth(d.getUTCMonth() + months);
    return d;
  }
  return new Date(t.getTime() + n * UNIT_MS[unit]);
}

/** Midnight UTC of a date; unlike Date.UTC, years 0…99 stay years 0…99 (not 1900…1999). */
function utcDate(year: number, month: number, day: number): Date {
  const t = new Date(0);
  t.setUTCFullYear(year, month, day);
  return t;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

function checked(d: Date, input: string, month?: string, day?: string): Date {
  if (Number.isNaN(d.getTime())) throw new TimeParseError(`invalid time '${input}'`);
  // Date.UTC rolls 2024-02-31 over into March: reject instead of guessing.
  if (month && d.getUTCMonth() + 1 !== Number(month)) throw new TimeParseError(`invalid time '${input}'`);
  if (day && d.getUTCDate() !== Number(day)) throw new TimeParseError(`invalid time '${input}'`);
  return d;
}

/** Unix ms as RFC3339 in whole seconds (`2024-01-31T00:00:00Z`), as the series' CSV and the DEX records write times. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
