import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import type { TableDef } from '../catalog/CatalogModel';
import { tableCode, type TableHandle } from '../catalog/TableHandle';

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
    return readOnly(db.withSchema(t.schema).from(t.storage));
  };
}

function readOnly(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const guarded: Knex.QueryBuilder = new Proxy(builder, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && WRITES.has(prop)) {
        return () => {
          throw new Error(`ctx.read() is read-only: ${prop}() is not allowed (write with ctx.append or ctx.entities)`);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || prop === 'then' || prop === 'catch' || prop === 'finally')
        return typeof v === 'function' ? v.bind(target) : v;
      // Chained calls return the builder itself: keep handing out the guarded one.
      return (...args: unknown[]) => {
        const r = v.apply(target, args);
        return r === target ? guarded : r;
      };
    },
  });
  return guarded;
}
