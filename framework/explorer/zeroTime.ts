/**
 * Go's zero time, which the original service sends for a time that does not exist (a bigmap never
 * deleted, an election still open): Go clients decode time fields into non-pointer time.Time, and
 * the TzPro SDK's table decoder cannot parse null.
 */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

export function timeOrZero(time: unknown): unknown {
  return time ?? ZERO_TIME;
}
