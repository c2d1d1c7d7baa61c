import type { Knex } from 'knex';
import { ColumnDef, Database, ident, TableDef } from '../../../framework';

/** A row as the API reads it: every column as the text its type renders (RFC3339 times, exact numbers). */
export type TextRow = Record<string, string | null>;

/** A filter name the SDK sends that the table stores under another name, or spread over several columns. */
export interface FilterName {
  name: string;
  /** The stored column it reads (`block` → `height`). */
  aliasOf?: string;
  /** The stored columns any of which may match (`address` → signer, sender, receiver). */
  anyOf?: string[];
}

/**
 * One DEX table for the API: a reader of whole rows, and a filter view of the table that also knows
 * the SDK's names (`block`, `open_block`, `address`…), so list filters go through the framework's
 * generic parser and SQL builder (parseTableRequest, applyFilters) unchanged.
 */
export class DexTable {
  readonly filters: TableDef;

  constructor(
    private readonly db: Database,
    readonly table: TableDef,
    names: readonly FilterName[] = [],
  ) {
    const extra = names.map((n) => virtualColumn(table, n));
    const byName = new Map(extra.map((c) => [c.name, c]));
    this.filters = { ...table, virtualColumns: [...table.virtualColumns, ...extra], column: (name) => byName.get(name) ?? table.column(name) };
  }

  /** All columns rendered as text; add conditions, order and limits, then `read` it. */
  query(): Knex.QueryBuilder {
    const knex = this.db.reader;
    const exprs = this.table.columns.map((c, i) => `${c.type.select(ident(c.name), 'object')} as "c${i}"`);
    return knex.withSchema(this.table.schema).from(this.table.storage).select(knex.raw(exprs.join(', ')));
  }

  async read(query: Knex.QueryBuilder): Promise<TextRow[]> {
    const rows = await this.db.selectRows(query);
    return rows.map((raw) => Object.fromEntries(this.table.columns.map((c, i) => [c.name, raw[i]])));
  }
}

function virtualColumn(table: TableDef, n: FilterName): ColumnDef {
  const targets = (n.anyOf ?? [n.aliasOf!]).map((name) => {
    const c = table.column(name);
    if (!c) throw new Error(`defi-dex api: table '${table.code}' has no column '${name}'`);
    return c;
  });
  const base = targets[0];
  return n.anyOf
    ? { name: n.name, type: base.type, nullable: true, description: `any of ${n.anyOf.join(', ')}`, inDefault: false, anyOf: targets }
    : { name: n.name, type: base.type, nullable: base.nullable, description: base.description, inDefault: false, aliasOf: base.name };
}
