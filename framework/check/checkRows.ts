import type { Catalog } from '../catalog/Catalog';
import type { TableDef } from '../catalog/CatalogModel';

/* Why: the checks name tables and columns by their catalog codes; these resolve them once, at start-up. */

/** The table, once it has every named column: a renamed column fails at start-up rather than checking nothing. */
export function columnsOf(catalog: Catalog, code: string, columns: readonly string[]): TableDef {
  const t = catalog.require(code);
  const missing = columns.filter((c) => !t.columns.some((d) => d.name === c));
  if (missing.length > 0) throw new Error(`checks: ${code} has no column ${missing.join(', ')}`);
  return t;
}

/** SQL condition keeping the rows a reorg did not orphan (append tables that keep them), for the alias. */
export function live(t: TableDef, alias: string): string {
  return t.orphanColumn ? `(${alias}.${t.orphanColumn} is null or not ${alias}.${t.orphanColumn})` : 'true';
}

/** A bytes column's value as hex, as the drivers return it (a Buffer, a Uint8Array, or `\x…` text). */
export function hexOf(v: unknown): string | undefined {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (typeof v === 'string') return v.startsWith('\\x') ? v.slice(2) : v;
  return undefined;
}
