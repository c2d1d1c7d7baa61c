import type { Knex } from 'knex';
import { CatalogRows, Database, FilterName, TableDef, TextRow, withFilterNames } from '../index';

export type { TextRow } from '../index';

/**
 * One DEX table for the API: a reader of whole rows as text, and a filter view of the table that
 * also knows the SDK's names (`block`, `open_block`, `address`…), so list filters go through the
 * framework's generic parser and SQL builder (parseTableRequest, applyFilters) unchanged.
 */
export class DexTable {
  readonly filters: TableDef;
  private readonly rows: CatalogRows;

  constructor(
    db: Database,
    readonly table: TableDef,
    names: readonly FilterName[] = [],
  ) {
    this.filters = withFilterNames(table, names);
    this.rows = new CatalogRows(db, table);
  }

  /** All columns rendered as text; add conditions, order and limits, then `read` it. */
  query(): Knex.QueryBuilder {
    return this.rows.query();
  }

  read(query: Knex.QueryBuilder): Promise<TextRow[]> {
    return this.rows.readText(query);
  }
}
