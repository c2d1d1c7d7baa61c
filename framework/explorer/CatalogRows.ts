import type { Knex } from 'knex';
import { type ColumnDef, storedName, type TableDef } from '../catalog/CatalogModel';
import type { TextRow } from '../http/RouteShapers';
import { Database } from '../storage/Database';

/** A row of a catalog table as explorer objects show it: tez numbers, RFC3339 times, booleans, hex bytes. */
export type ExplorerRow = Record<string, unknown>;

export interface ReadOptions {
  prepare?: boolean;
}

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Reads rows of one catalog table rendered by the columns' own types (the same text the object
 * collections send), so explorer objects and `/tables` never disagree on a value. Columns are
 * selected under positional aliases: an alias named like a column would make `ORDER BY row_id` sort
 * the rendered text instead of the stored number.
 */
export class CatalogRows {
  private readonly columns: readonly ColumnDef[];

  constructor(
    private readonly db: Database,
    readonly table: TableDef,
    columnNames?: readonly string[],
  ) {
    this.columns = columnNames ? columnNames.map((n) => requireColumn(table, n)) : table.columns;
  }

  /** A query over the table selecting the rendered columns; add conditions, order and limits, then `read` it. */
  query(): Knex.QueryBuilder {
    const knex = this.db.reader;
    const exprs = this.columns.map((c, i) => `${c.type.select(ident(storedName(c)), 'object')} as "c${i}"`);
    return knex.withSchema(this.table.schema).from(this.table.storage).select(knex.raw(exprs.join(', ')));
  }

  /** `prepare`: see Database.selectRows (hot lookups of a fixed shape, such as one object by id). */
  async read(query: Knex.QueryBuilder, options: ReadOptions = {}): Promise<ExplorerRow[]> {
    return (await this.readText(query, options)).map((text) => this.explorerRow(text));
  }

  /** A row read as text (`readText`) as `read` shows it: for record shapers that build on explorer objects. */
  explorerRow(text: TextRow): ExplorerRow {
    const row: ExplorerRow = {};
    for (const c of this.columns) row[c.name] = explorerValue(c, text[c.name]);
    return row;
  }

  /** The rows as their text, unparsed (exact big numbers, for records built in code). */
  async readText(query: Knex.QueryBuilder, options: ReadOptions = {}): Promise<TextRow[]> {
    const rows = await this.db.selectRows(query, options);
    return rows.map((raw) => Object.fromEntries(this.columns.map((c, i) => [c.name, raw[i]])));
  }

  /** One object by its key: a fixed-shape lookup, so prepared unless told otherwise. */
  async first(query: Knex.QueryBuilder, options: ReadOptions = { prepare: true }): Promise<ExplorerRow | undefined> {
    return (await this.read(query.limit(1), options))[0];
  }
}

export function requireColumn(table: TableDef, name: string): ColumnDef {
  const column = table.column(name);
  if (!column) throw new Error(`explorer: table '${table.code}' has no column '${name}'`);
  return column;
}

/** The value as its type writes it in JSON objects (money as a tez number); integers beyond 2^53 as bigint (sent as exact numbers). */
function explorerValue(column: ColumnDef, raw: string | null): unknown {
  if (raw === null) return null;
  const value: unknown = JSON.parse(column.type.json(raw, 'object'));
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && /^-?\d+$/.test(raw)) return BigInt(raw);
  return value;
}
