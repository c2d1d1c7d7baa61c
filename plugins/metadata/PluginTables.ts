import type { Knex } from 'knex';
import { Catalog, TableDef } from '../../framework';

/** The metadata plugin's catalog tables (declared in tables.yaml under `metadata`). */
export class PluginTables {
  readonly entries: TableDef;
  readonly contracts: TableDef;
  readonly tokens: TableDef;
  readonly documents: TableDef;

  constructor(catalog: Catalog) {
    const table = (code: string): TableDef => {
      const t = catalog.table(code);
      if (!t) throw new Error(`metadata: table '${code}' is missing from the catalog`);
      return t;
    };
    this.entries = table('metadata');
    this.contracts = table('contract_metadata');
    this.tokens = table('token');
    this.documents = table('metadata_documents');
  }
}

/** A query on a catalog table. */
export function from(db: Knex | Knex.Transaction, t: TableDef): Knex.QueryBuilder {
  return db.withSchema(t.schema).from(t.storage);
}

/**
 * Tables written outside the indexer (API entries, fetched documents) number their rows themselves:
 * one writer at a time per table (a transaction-scoped advisory lock), next id = max + 1.
 */
export async function lockedNextRowId(trx: Knex.Transaction, t: TableDef): Promise<bigint> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${t.schema}.${t.storage}`]);
  const [{ max }] = await from(trx, t).max({ max: 'row_id' });
  return BigInt(max ?? 0) + 1n;
}

/** A row for insert/update: every value through its column type. */
export function dbRow(t: TableDef, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    const c = t.column(k);
    if (!c) throw new Error(`metadata: table '${t.code}' has no column '${k}'`);
    out[k] = c.type.toDb(v);
  }
  return out;
}

/** A row as read: every value through its column type. */
export function jsRow(t: TableDef, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = t.column(k) ? t.column(k)!.type.fromDb(v) : v;
  return out;
}
