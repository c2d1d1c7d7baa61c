import { isRecord } from '../../../framework';
import { VenueDataError } from '../Decimals';

/** Readers that check a venue's JSON shape and name what is wrong ("wrong schema"), for adapters. */
export type Json = Record<string, unknown>;

export function obj(v: unknown, what: string): Json {
  if (!isRecord(v)) throw new VenueDataError(`${what}: expected an object`);
  return v;
}

export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new VenueDataError(`${what}: expected an array`);
  return v;
}

/** An array row with at least `n` elements. */
export function row(v: unknown, n: number, what: string): unknown[] {
  const a = arr(v, what);
  if (a.length < n) throw new VenueDataError(`${what}: expected at least ${n} elements, got ${a.length}`);
  return a;
}

/** Unix seconds or milliseconds (number or numeric string) as ms. */
export function timeMs(v: unknown, unit: 's' | 'ms', what: string): number {
  const n = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
    throw new VenueDataError(`${what}: '${String(v)}' is not a time`);
  return Math.round(unit === 's' ? n * 1000 : n);
}

/** An ISO time string (UTC when it has no zone) as ms. */
export function isoMs(v: unknown, what: string): number {
  if (typeof v !== 'string') throw new VenueDataError(`${what}: expected a time string`);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
  if (!Number.isFinite(ms)) throw new VenueDataError(`${what}: '${v}' is not a time`);
  return ms;
}

/** An API-level error the venue reports inside a 200 answer (Kraken's error list, OKX's code…). */
export function venueError(condition: boolean, message: string): void {
  if (condition) throw new VenueDataError(`venue error: ${message}`);
}
