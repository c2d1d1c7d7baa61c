import type { ColumnType } from '../catalog/types/ColumnType';

/**
 * Lists of values in a query (`in`/`nin` filters, looked-up ids, packed ids) travel as one bound array
 * parameter of the column's type: `col = any(?::bigint[])`, never one parameter per value. Why: past
 * 65,535 parameters the wire protocol's count wraps ("bind message has N parameter formats but 0
 * parameters"), knex overflowed building the text before that, and a failed query's text grew to
 * megabytes. Postgres plans `= any(array)` as it plans `in (…)` (its parser turns an IN list into
 * the same array comparison), so an index on the column still serves a short list.
 */

/** Most values a request's lists may hold together (docs/api.md, Limits): more is a 400. */
export const MAX_LIST_VALUES = 100_000;

/** The one array parameter of a list of `type` values. */
export function arrayParameter(type: ColumnType): string {
  return `?::${type.sqlType}[]`;
}

/**
 * `ref` among the values of `array` (an array expression binding the list as its one parameter:
 * `arrayParameter` unless the values are mapped first); `negated`: not among them, a null included
 * (as `nin` promises: "not equal" includes rows where the column is empty).
 */
export function amongSql(ref: string, array: string, negated: boolean): string {
  return negated ? `(${ref} is null or ${ref} <> all(${array}))` : `${ref} = any(${array})`;
}

/**
 * `ref` equal to a value (`list`: among an array's), `value` the SQL of it, bound `uses` times. A column
 * whose indexes are on a key expression (ColumnType.indexKey: an op hash's first 8 bytes) is compared
 * on that key, which its index answers, and then whole.
 */
export function equalsSql(type: ColumnType, ref: string, value: string, list: boolean): { sql: string; uses: number } {
  const whole = list ? amongSql(ref, value, false) : `${ref} = ${value}`;
  if (!type.indexKey) return { sql: whole, uses: 1 };
  const key = list
    ? `${type.indexKey(ref)} = any(array(select ${type.indexKey('v')} from unnest(${value}) as v))`
    : `${type.indexKey(ref)} = ${type.indexKey(value)}`;
  return { sql: `${key} and ${whole}`, uses: 2 };
}
