import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { TableHandle, tableCode } from '../catalog/TableHandle';

/**
 * Brings a derived table back to what it was at `height`. It runs in the rollback transaction before
 * the framework removes the rows above `height`, so it still sees the source rows that go.
 */
export type RecomputeFn = (trx: Knex.Transaction, height: number) => Promise<void> | void;

/**
 * The recompute hooks of tables the catalog declares `derived_from` others. Such tables are not
 * journaled row by row (their plugin rewrites them from their sources), so a rollback asks each
 * plugin to re-derive them: one generic path instead of a rollback hook per plugin.
 */
export class DerivedTables {
  private readonly hooks = new Map<string, RecomputeFn>();

  add(table: TableHandle<unknown> | string, hook: RecomputeFn): void {
    const code = tableCode(table);
    if (this.hooks.has(code)) throw new Error(`table '${code}' has two recompute hooks`);
    this.hooks.set(code, hook);
  }

  /** At start-up: every derived table has its hook, and only derived tables have one. */
  check(catalog: Catalog): void {
    for (const t of catalog.tables.values()) {
      if (t.derivedFrom.length > 0 && !this.hooks.has(t.code))
        throw new Error(
          `table '${t.code}' is derived from ${t.derivedFrom.join(', ')} but plugin '${t.plugin}' registered no recompute hook`,
        );
    }
    for (const code of this.hooks.keys()) {
      if (!catalog.table(code)?.derivedFrom.length)
        throw new Error(
          `a recompute hook names table '${code}', which the catalog does not declare derived_from other tables`,
        );
    }
  }

  /** Re-derives every derived table as of `height`, in the order their plugins registered them. */
  async recompute(trx: Knex.Transaction, height: number): Promise<void> {
    for (const hook of this.hooks.values()) await hook(trx, height);
  }
}
