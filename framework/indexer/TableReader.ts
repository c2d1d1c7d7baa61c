import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { isStored, type TableDef } from '../catalog/CatalogModel';
import { tableCode, type TableHandle } from '../catalog/TableHandle';
import { EnumType } from '../catalog/types/EnumType';

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
    return readOnly(db.withSchema(t.schema).from(t.storage), labels(t));
  };
}

/**
 * The table's enum columns: stored as codes (EnumType), read and filtered by handlers as labels, as they wrote
 * them. `where`/`whereIn` values on such a column become codes; rows come back with labels.
 */
function labels(t: TableDef): ReadonlyMap<string, EnumType> {
  return new Map(t.columns.flatMap((c) => (c.type instanceof EnumType && isStored(c) ? [[c.name, c.type]] : [])));
}

const FILTERS = new Set(['where', 'andWhere', 'orWhere', 'whereNot', 'whereIn', 'whereNotIn', 'orWhereIn']);

function codes(enums: ReadonlyMap<string, EnumType>, args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null && !Array.isArray(first) && rest.length === 0) {
    const o = first as Record<string, unknown>;
    return [Object.fromEntries(Object.entries(o).map(([k, v]) => [k, enums.get(k)?.toDb(v) ?? v]))];
  }
  const type = typeof first === 'string' ? enums.get(first) : undefined;
  if (!type || rest.length === 0) return args;
  const last = rest[rest.length - 1];
  const coded = Array.isArray(last) ? last.map((v) => type.toDb(v)) : type.toDb(last);
  return [first, ...rest.slice(0, -1), coded];
}

/** Rows (a list, or the one row of `first()`) with their enum columns' codes named again. */
function decoded(enums: ReadonlyMap<string, EnumType>, result: unknown): unknown {
  if (enums.size === 0) return result;
  for (const row of Array.isArray(result) ? result : [result])
    if (typeof row === 'object' && row !== null)
      for (const [name, type] of enums)
        if (name in row) (row as Record<string, unknown>)[name] = type.fromDb((row as Record<string, unknown>)[name]);
  return result;
}

function readOnly(builder: Knex.QueryBuilder, enums: ReadonlyMap<string, EnumType>): Knex.QueryBuilder {
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
          v.call(target, (r: unknown) => (ok ? ok(decoded(enums, r)) : decoded(enums, r)), fail);
      if (typeof v !== 'function' || prop === 'catch' || prop === 'finally')
        return typeof v === 'function' ? v.bind(target) : v;
      // Chained calls return the builder itself: keep handing out the guarded one.
      return (...args: unknown[]) => {
        const r = v.apply(target, typeof prop === 'string' && FILTERS.has(prop) ? codes(enums, args) : args);
        return r === target ? guarded : r;
      };
    },
  });
  return guarded;
}
