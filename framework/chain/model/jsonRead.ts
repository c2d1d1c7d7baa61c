/** Small readers for untrusted node JSON: they never throw, they answer `undefined` for a wrong shape. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member of a JSON object; `undefined` when the value is not an object. */
export function member(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** The string members of a JSON object (the others left out); `{}` when the value is not an object. */
export function asStringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** A JSON object, else `undefined`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/**
 * A time as drivers and JSON hand it over (Date, RFC 3339 text, unix milliseconds); anything else is
 * the invalid Date (whose `toISOString` throws, as for any bad time).
 */
export function asDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'string' || typeof value === 'number' ? value : NaN);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string, else `undefined` (the node writes `""` for some absent hashes). */
export function asNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function asInt(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asRecords(value: unknown): Record<string, unknown>[] {
  return asArray(value).filter(isRecord);
}

const DECIMAL = /^-?\d+$/;

/** A node decimal string (or safe JSON integer) as bigint; `undefined` when absent or not a number. */
export function asBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'string' && DECIMAL.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return undefined;
}

/**
 * The object without its `undefined` properties (keeps normalized objects easy to compare and print):
 * the object itself when it has none, else a copy. Why not `delete`: it turns the object into a slow
 * dictionary-mode object, and normalized blocks are read many times by every plugin.
 */
export function withoutUndefined<T extends object>(value: T): T {
  const keys = Object.keys(value) as (keyof T)[];
  if (keys.every((key) => value[key] !== undefined)) return value;
  const out = {} as T;
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
