/**
 * A stored integer as a bigint, null or absent as 0: entity rows hold bigints, rows read as text or
 * built by a plugin may hold numbers or decimal text. One helper for every plugin's row arithmetic.
 */
export function bigOrZero(v: unknown): bigint {
  return v === null || v === undefined ? 0n : BigInt(v as bigint | number | string);
}
