import type { ColumnDef, TableDef } from './CatalogModel';

/** A filter name clients send that the table stores under another name, or spread over several columns. */
export interface FilterName {
  name: string;
  /** The stored column it reads (`block` → `height`). */
  aliasOf?: string;
  /** The stored columns any of which may match (`address` → signer, sender, receiver). */
  anyOf?: readonly string[];
}

/**
 * A filter view of a table that also knows extra names (the SDK's `block`, `address`…), so list
 * filters under those names go through the generic parser and SQL builder (parseTableRequest,
 * applyFilters) unchanged. Why a view: the table itself, its rows and `/tables` keep the stored names.
 */
export function withFilterNames(table: TableDef, names: readonly FilterName[]): TableDef {
  if (names.length === 0) return table;
  const extra = names.map((n) => virtualColumn(table, n));
  const byName = new Map(extra.map((c) => [c.name, c]));
  return {
    ...table,
    virtualColumns: [...table.virtualColumns, ...extra],
    column: (name) => byName.get(name) ?? table.column(name),
  };
}

function virtualColumn(table: TableDef, n: FilterName): ColumnDef {
  const targets = (n.anyOf ?? [n.aliasOf!]).map((name) => {
    const c = table.column(name);
    if (!c) throw new Error(`filter name '${n.name}': table '${table.code}' has no column '${name}'`);
    return c;
  });
  const base = targets[0];
  return n.anyOf
    ? {
        name: n.name,
        type: base.type,
        nullable: true,
        description: `any of ${n.anyOf.join(', ')}`,
        inDefault: false,
        anyOf: targets,
      }
    : {
        name: n.name,
        type: base.type,
        nullable: base.nullable,
        description: base.description,
        inDefault: false,
        aliasOf: base.name,
      };
}
