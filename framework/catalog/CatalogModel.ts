import { ColumnType } from './types/ColumnType';

/** The catalog as written in tables.yaml or produced by decorators, before validation. */
export interface ColumnDecl {
  name: string;
  type: string;
  nullable?: boolean;
  description?: string;
  /** In the default column set (returned without `columns=`); default true. */
  default?: boolean;
}
export interface IndexDecl {
  columns: string[];
  unique?: boolean;
}
export interface TableDecl {
  description?: string;
  /** Storage table name inside the plugin's Postgres schema; defaults to the table code. */
  storage?: string;
  /** append: rows are only added (rollback deletes by height); mutable: rows change (rollback via journal). */
  kind?: 'append' | 'mutable';
  /** Column holding the block height a row belongs to; rollback of append tables deletes above it. */
  height_column?: string;
  /** A bool column that rollback sets to true instead of deleting the row (blocks stay visible as orphans). */
  orphan_column?: string;
  columns: ColumnDecl[];
  indexes?: Array<string[] | IndexDecl>;
}
export type Aggregation = 'sum' | 'count' | 'first' | 'last' | 'min' | 'max' | 'mean';
export interface SeriesColumnDecl {
  name: string;
  agg: Aggregation;
  /** Column of the table aggregated; defaults to `name` (unused for count). */
  source?: string;
}
export interface SeriesDecl {
  description?: string;
  table: string;
  time_column?: string;
  columns: SeriesColumnDecl[];
}
export interface PluginCatalogDecl {
  tables?: Record<string, TableDecl>;
  series?: Record<string, SeriesDecl>;
}
export interface CatalogDecl {
  version: number;
  plugins: Record<string, PluginCatalogDecl>;
}

/** The validated catalog. */
export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly description: string;
  readonly inDefault: boolean;
}
export interface IndexDef {
  readonly columns: readonly string[];
  readonly unique: boolean;
}
export interface TableDef {
  readonly code: string;
  readonly plugin: string;
  /** Postgres schema of the owning plugin. */
  readonly schema: string;
  readonly storage: string;
  readonly description: string;
  readonly kind: 'append' | 'mutable';
  readonly heightColumn?: string;
  readonly orphanColumn?: string;
  readonly columns: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  column(name: string): ColumnDef | undefined;
}
export interface SeriesColumnDef {
  readonly name: string;
  readonly agg: Aggregation;
  readonly source?: ColumnDef;
}
export interface SeriesDef {
  readonly code: string;
  readonly plugin: string;
  readonly table: TableDef;
  readonly timeColumn: ColumnDef;
  readonly description: string;
  readonly columns: readonly SeriesColumnDef[];
}

/** The Postgres schema name of a plugin: `core-chain` → `core_chain`. */
export function pluginSchema(plugin: string): string {
  return plugin.replace(/-/g, '_');
}
