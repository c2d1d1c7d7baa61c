import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { isStored, type TableDef } from '../catalog/CatalogModel';
import { tableCode, type TableHandle } from '../catalog/TableHandle';
import type { ColumnType } from '../catalog/types/ColumnType';
import { arrayParameter, equalsSql } from '../query/ValueLists';
import { quote } from '../storage/SchemaMigrator';

/** A select query over one catalog table: what committed before the batch (see BatchIo). */
export type TableReader = (table: TableDef | TableHandle<unknown> | string) => Knex.QueryBuilder;

const WRITES = new Set([
  'insert',
  'update',
  'del',
  'delete',
  'truncate',
  'upsert',
  'merge',
  'onConflict',
  'increment',
  'decrement',
  'returning',
]);

/**
 * Handlers read through this and write only through `append`/`entities`, so every write is journaled
 * and generic rollback covers it: a write method on the builder throws at once.
 */
export function tableReader(db: Knex, catalog: Catalog): TableReader {
  return (table) => {
    const t = typeof table === 'object' && 'schema' in table ? table : catalog.require(tableCode(table));
    return readOnly(db.withSchema(t.schema).from(t.storage), converted(t));
  };
}

/**
 * The table's columns whose type stores what handlers write otherwise (ColumnType.converts: an enum's
 * label as its code, an op hash's base58 as its bytes): read and filtered by handlers as they wrote
 * them. `where`/`whereIn` values on such a column are converted; rows come back converted again.
 */
function converted(t: TableDef): ReadonlyMap<string, ColumnType> {
  return new Map(t.columns.flatMap((c) => (c.type.converts && isStored(c) ? [[c.name, c.type]] : [])));
}

const FILTERS = new Set(['where', 'andWhere', 'orWhere', 'whereNot', 'whereIn', 'whereNotIn', 'orWhereIn']);

/** A filter call's arguments with its values stored as the column's type stores them. */
function stored(types: ReadonlyMap<string, ColumnType>, args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null && !Array.isArray(first) && rest.length === 0) {
    const o = first as Record<string, unknown>;
    return [Object.fromEntries(Object.entries(o).map(([k, v]) => [k, types.get(k)?.toDb(v) ?? v]))];
  }
  const type = typeof first === 'string' ? types.get(first) : undefined;
  if (!type || rest.length === 0) return args;
  const last = rest[rest.length - 1];
  const coded = Array.isArray(last) ? last.map((v) => type.toDb(v)) : type.toDb(last);
  return [first, ...rest.slice(0, -1), coded];
}

/**
 * `where(column, value)` / `whereIn(column, values)` on a column indexed on a key expression
 * (ColumnType.indexKey: op `hash`) as the equality its index answers (query/ValueLists), or undefined.
 */
function keyed(
  builder: Knex.QueryBuilder,
  prop: string,
  types: ReadonlyMap<string, ColumnType>,
  args: unknown[],
): Knex.QueryBuilder | undefined {
  const [name, value, ...more] = args;
  // `where(column, null)` is knex's `is null`: left to it.
  if (typeof name !== 'string' || value === null || value === undefined || more.length > 0) return undefined;
  const type = types.get(name);
  if (!type?.indexKey || (prop !== 'where' && prop !== 'whereIn')) return undefined;
  const list = prop === 'whereIn';
  const { sql, uses } = equalsSql(type, quote(name), list ? arrayParameter(type) : type.placeholder, list);
  return builder.whereRaw(sql, Array<Knex.Value>(uses).fill(value as Knex.Value));
}

/** Rows (a list, or the one row of `first()`) with their converted columns named again. */
function decoded(types: ReadonlyMap<string, ColumnType>, result: unknown): unknown {
  if (types.size === 0) return result;
  for (const row of Array.isArray(result) ? result : [result])
    if (typeof row === 'object' && row !== null)
      for (const [name, type] of types)
        if (name in row) (row as Record<string, unknown>)[name] = type.fromDb((row as Record<string, unknown>)[name]);
  return result;
}

function readOnly(builder: Knex.QueryBuilder, types: ReadonlyMap<string, ColumnType>): Knex.QueryBuilder {
  const guarded: Knex.QueryBuilder = new Proxy(builder, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && WRITES.has(prop)) {
        return () => {
          throw new Error(`ctx.read() is read-only: ${prop}() is not allowed (write with ctx.append or ctx.entities)`);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      if (prop === 'then' && typeof v === 'function')
        return (ok?: (r: unknown) => unknown, fail?: (e: unknown) => unknown) =>
          v.call(target, (r: unknown) => (ok ? ok(decoded(types, r)) : decoded(types, r)), fail);
      if (typeof v !== 'function' || prop === 'catch' || prop === 'finally')
        return typeof v === 'function' ? v.bind(target) : v;
      // Chained calls return the builder itself: keep handing out the guarded one.
      return (...args: unknown[]) => {
        const filter = typeof prop === 'string' && FILTERS.has(prop);
        const values = filter ? stored(types, args) : args;
        const r = (filter && keyed(target, prop, types, values)) || v.apply(target, values);
        return r === target ? guarded : r;
      };
    },
  });
  return guarded;
}
