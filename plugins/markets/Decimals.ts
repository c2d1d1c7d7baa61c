import BigNumber from 'bignumber.js';
import { Decimal } from './Records';

/**
 * Exact decimal arithmetic for values venues send as JSON numbers or numeric strings (bignumber.js:
 * no float rounding). Every reader throws VenueDataError on anything that is not a finite number, so
 * a venue's garbage is reported, never stored.
 */
const D = BigNumber.clone({ DECIMAL_PLACES: 18, ROUNDING_MODE: BigNumber.ROUND_HALF_UP, EXPONENTIAL_AT: 1e9 });

export class VenueDataError extends Error {}

function big(v: unknown, what: string): BigNumber {
  if ((typeof v !== 'string' || v.trim() === '') && typeof v !== 'number')
    throw new VenueDataError(`${what}: expected a number, got ${JSON.stringify(v)}`);
  const n = new D(typeof v === 'string' ? v.trim() : v);
  if (!n.isFinite()) throw new VenueDataError(`${what}: '${String(v)}' is not a finite number`);
  return n;
}

/** A required decimal. */
export function dec(v: unknown, what: string): Decimal {
  return big(v, what).toFixed();
}

/** An optional decimal: null/undefined stay null. */
export function optDec(v: unknown, what: string): Decimal | null {
  return v === null || v === undefined ? null : dec(v, what);
}

/** A required positive price. */
export function price(v: unknown, what: string): Decimal {
  const n = big(v, what);
  if (!n.isGreaterThan(0)) throw new VenueDataError(`${what}: price ${n.toFixed()} is not positive`);
  return n.toFixed();
}

export function count(v: unknown, what: string): bigint | null {
  if (v === null || v === undefined) return null;
  const n = big(v, what);
  if (!n.isInteger() || n.isNegative()) throw new VenueDataError(`${what}: '${String(v)}' is not a count`);
  return BigInt(n.toFixed());
}

export function mul(a: Decimal | null, b: Decimal | null): Decimal | null {
  return a === null || b === null ? null : new D(a).times(b).toFixed();
}

export function sub(a: Decimal | null, b: Decimal | null): Decimal | null {
  return a === null || b === null ? null : new D(a).minus(b).toFixed();
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((s, v) => s.plus(v), new D(0)).toFixed();
}

/** a / b to 18 places; null when either is unknown or b is zero. */
export function div(a: Decimal | null, b: Decimal | null): Decimal | null {
  if (a === null || b === null || new D(b).isZero()) return null;
  return new D(a).div(b).toFixed();
}

/** Percent change from open to last. */
export function changePercent(open: Decimal | null, last: Decimal): Decimal | null {
  return open === null || new D(open).isZero() ? null : new D(last).minus(open).div(open).times(100).toFixed();
}

/** A fraction (0.0138) as percent (1.38). */
export function percentOf(fraction: Decimal | null): Decimal | null {
  return fraction === null ? null : new D(fraction).times(100).toFixed();
}

/** Median of decimals: the middle one, or the exact mean of the two middle ones. */
export function median(values: readonly Decimal[]): Decimal | undefined {
  if (values.length === 0) return undefined;
  const sorted = values.map((v) => new D(v)).sort((a, b) => a.comparedTo(b) ?? 0);
  const mid = Math.floor(sorted.length / 2);
  return (sorted.length % 2 === 1 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2)).toFixed();
}

export function compare(a: Decimal, b: Decimal): number {
  return new D(a).comparedTo(b) ?? 0;
}
