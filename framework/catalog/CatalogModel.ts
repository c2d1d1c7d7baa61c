import { ColumnType, SqlValue } from './types/ColumnType';

/** The catalog as written in tables.yaml or produced by decorators, before validation. */
export interface ColumnDecl {
  name: string;
  type: string;
  nullable?: boolean;
  description?: string;
  /** In the default column set (returned without `columns=`); default true. */
  default?: boolean;
  /** Not stored: another name of a stored column of the same type (names clients of the original use). */
  alias_of?: string;
  /** Not stored, filter-only: a filter on it matches rows where any of these columns (same type) matches. */
  any_of?: string[];
  /**
   * Not stored, filter-only: a filter on it matches rows whose `on` columns equal the `by` columns
   * (default: the same names) of a row of another (earlier declared) table matching the filter on its
   * `column` (flow `op`: the flows of the operations with that hash; flow `address_type`: the flows
   * of the accounts, `account_id` = the account's `row_id`, of that kind).
   */
  lookup?: { table: string; column: string; on: string[]; by?: string[] };
  /**
   * Not stored, filter-only: a filter on it is a filter on `column`, each value first replaced by the
   * `column` of this table's row with the greatest `by` at or before it (income `time`: the cycle
   * begun last by then, as the original turned a time into a cycle; -1 before the first row). `by`
   * has the column's type and leads a B-tree, which finds that row.
   */
  maps_to?: { column: string; by: string };
  /**
   * A stored column whose equality filters (eq, ne, in, nin) run through `column`, this table's copy
   * of the `value` column (default `row_id`) of the `table` row whose `key` holds the value (op
   * `sender` through `sender_id`, the account with that address; op `block` through `height`, the
   * main-chain block with that hash): the index serving them is then one over small integers, not
   * over the text. The key names one row: it has a unique index, or the table has an orphan column
   * and the key names one main-chain row (orphans are left out). `by_value`: an equality filter may
   * also give the value itself (op `block`: a hash or a height, as the original takes). `stored:
   * false`: an append table keeps only the id column, and reads the value from the other table's
   * key (op `sender`: the account's address), as the original keeps account ids in its rows; the
   * text is then not repeated in every row.
   */
  filter_via?: { column: string; table: string; key: string; value?: string; by_value?: boolean; stored?: boolean };
  /**
   * A column whose value packs two others, `high << bits | low` (op `id`: height << 16 | op_n): its
   * filters run as row comparisons on (high, low), which their index answers, so the packed column
   * needs no index of its own. `stored: false` (append tables): computed on every read, not kept.
   */
  packs?: { high: string; low: string; bits: number; stored?: boolean };
  /**
   * A column holding the `column` of the `table` row at this row's height (op `time` and `cycle`:
   * the block's), so it never decreases as the height grows: its filters (eq, comparisons, ranges)
   * also bound this append table's height, and so its row ids, found by that table's index on the
   * column. A promise the plugin makes: a row with another value may be left out of an answer.
   */
  follows_height?: { table: string; column: string };
  /**
   * Values whose rows lists leave out unless a filter on this column names them (`eq`/`in`): rows
   * a client of the original cannot decode (op `type` event and unknown).
   */
  hidden_values?: string[];
  /**
   * An integer that is zero in most rows (an attestation's fee, volume, gas…): a zero is kept as
   * NULL, which takes no room in a row, and every read gives it back as 0 (columnSql). For a
   * non-null integer or tez column of an append table that no index, alias or packed column uses.
   */
  sparse?: boolean;
}
/**
 * How an index is stored: a B-tree (the default: equality, ranges, order), a hash (equality only, on a
 * column of long, all-distinct values: a fraction of the B-tree's size) or BRIN (block ranges of a
 * column that grows with the rows' physical order, such as an append table's time: a few pages).
 */
export type IndexMethod = 'btree' | 'hash' | 'brin';
export interface IndexDecl {
  columns: string[];
  unique?: boolean;
  using?: IndexMethod;
  /**
   * Values of the leading column whose rows the index leaves out: values that are most of the table
   * (attestations in `op`), which the row-id and height indexes find as fast, so a B-tree entry per
   * such row would serve no query. A filter naming other values implies the predicate and uses it.
   */
  except?: string[];
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
  /**
   * How many later blocks an append table's row waits for before it no longer changes: core-chain's
   * block row gets `n_endorsed_slots` from the next block, which a later batch may bring. The series
   * rollups fold a row only then; queries read the newer rows raw, so answers stay exact. Default 0.
   */
  settles_after?: number;
  /**
   * Tables this one is computed from (bigmap_values from bigmap_updates): its plugin registers a
   * recompute hook (HandlerRegistry.recompute) that a rollback calls instead of the journal.
   */
  derived_from?: string[];
  columns: ColumnDecl[];
  indexes?: Array<string[] | IndexDecl>;
  /** Rows of some values of one column kept in narrow tables of their own (TablePartsDecl). */
  parts?: TablePartsDecl;
  /** Stored in partitions by ranges of the height (TablePartitionDecl). */
  partition?: TablePartitionDecl;
}
/**
 * An append table stored as Postgres range partitions of `span` heights each (`by`: its height column),
 * made ahead by the indexer, so an operator can pack, move or drop old ranges (docs/operations.md).
 */
export interface TablePartitionDecl {
  by: string;
  span: number;
}
/**
 * The rows of an append table that hold one of some values in column `by` and nothing but `columns`
 * (every other stored column empty: NULL, zero, false, or its `fixed` value, or one that follows the
 * height and is read from the table it follows), each value's rows in a narrow table of its own (op's
 * attestations: 90 % of the rows, a dozen of its 40 columns). The table's storage name is then a view,
 * the union of its main table (`{storage}_main`) and the parts in row-id order, which every read uses;
 * rows go where they fit, so no value is ever lost.
 */
export interface TablePartsDecl {
  by: string;
  /** Value of `by` → storage name of the narrow table. */
  tables: Record<string, string>;
  columns: string[];
  fixed?: Record<string, string | number | boolean>;
  /**
   * Narrower types of some `columns` in the narrow tables (op_n as `uint16`, kind as an enum of the known
   * kinds); the view reads them as the table's, and a row with a value the narrower type cannot hold stays
   * in the main table.
   */
  types?: Record<string, string>;
  indexes?: Array<string[] | IndexDecl>;
}
export type Aggregation = 'sum' | 'count' | 'first' | 'last' | 'min' | 'max' | 'mean' | 'wmean';
export interface SeriesColumnDecl {
  name: string;
  agg: Aggregation;
  /** Column of the table aggregated; defaults to `name` (unused for count). */
  source?: string;
  /** `wmean` only: the column whose values weigh each row (e.g. a candle's base volume for a VWAP). */
  weight?: string;
}
export interface SeriesDecl {
  description?: string;
  table: string;
  time_column?: string;
  /**
   * Columns whose values keep separate rollup buckets (e.g. exchange and pair), so path filters on them can use
   * rollups.
   */
  partition?: string[];
  /**
   * The rows the series aggregates, as `<column>[.op]: value` conditions that all hold (op eq, ne, gt,
   * gte, lt, lte on stored columns; values in the tables' syntax), e.g. `{ base_volume.gt: 0 }`.
   */
  where?: Record<string, string | number | boolean>;
  columns: SeriesColumnDecl[];
}
/** How a declared route shows a value: as the column renders it, or transformed by a named renderer. */
export type FieldRender = 'micheline' | 'csv_list';
export interface RouteFieldDecl {
  /** The key in the answer. */
  name: string;
  /** The column read; defaults to `name`. */
  column?: string;
  render?: FieldRender;
}
/**
 * A path parameter: a value of a column (or of any of several columns: a wallet as signer, sender or
 * receiver), checked by the (first) column's type (400 `invalid <what> '<raw>'`), or by a named key
 * resolver a plugin registers (`resolve`: a pool id, 400 when malformed, 404 when unknown).
 */
export interface RouteParamDecl {
  column: string | string[];
  /** The word of the 400 message; defaults to the column name. */
  what?: string;
  resolve?: string;
}
/**
 * An explorer route over one catalog table, served by the generic engine (framework/explorer/DeclaredRoutes):
 * `object` answers the first row matching the path parameters (404 `not_found` when none), `list` a
 * page of the rows matching them (explorer list parameters and column filters).
 */
export interface RouteDecl {
  path: string;
  /** The route's operation name (logs, OpenAPI operationId). */
  scope: string;
  kind: 'object' | 'list';
  table: string;
  summary?: string;
  params?: Record<string, RouteParamDecl>;
  /** Fields of the answer, in order; default: every stored column. */
  fields?: Array<string | RouteFieldDecl>;
  /** object: the detail of the 404 when no row matches. */
  not_found?: string;
  /** object: the column holding the height the row is fixed at (caching of final objects). */
  final_height?: string;
  /** list: the order without an `order` parameter (default asc). */
  order?: 'asc' | 'desc';
  /**
   * list: a row of another table that must exist first (404 `not_found` otherwise), matched by path
   * parameters (param → column) and fixed values (column → value).
   */
  requires?: {
    table: string;
    params: Record<string, string>;
    where?: Record<string, string | number | boolean>;
    not_found: string;
  };
  /** OpenAPI: the table and columns whose values are valid path parameters; default: the route's own params. */
  doc_params?: { table: string; columns: Record<string, string> };
  /**
   * list: how it pages: `explorer` (20 rows by default, at most 500) or `object` (100 by default, at most 10000,
   * `limit=0` none).
   */
  profile?: RouteProfile;
  /**
   * A record shaper registered by a plugin (RouteRegistry.shapers) builds the answer's records from whole rows;
   * excludes `fields`.
   */
  record?: string;
  /**
   * list: more filter names: another name of a column (`block: height`) or any of several columns (`address: [signer,
   * sender]`).
   */
  aliases?: Record<string, string | string[]>;
  /** list: a bool column; rows where it is true are left out unless the request says `with_closed=true`. */
  open_only?: string;
  /**
   * The explorer's boolean switches the route implements (`prim`, `meta`): checked per request and handed to the record
   * shaper; needs `record`.
   */
  switches?: ExplorerSwitch[];
}
/**
 * The explorer's boolean query switches (as the original's): a route that implements one declares it;
 * every other route accepts them, checked as booleans and ignored (framework/explorer/ExplorerArgs).
 */
export const EXPLORER_SWITCHES = ['verbose', 'rights', 'meta', 'prim', 'unpack', 'merge', 'storage'] as const;
export type ExplorerSwitch = (typeof EXPLORER_SWITCHES)[number];
export type RouteProfile = 'explorer' | 'object';
export interface PluginCatalogDecl {
  tables?: Record<string, TableDecl>;
  series?: Record<string, SeriesDecl>;
  routes?: RouteDecl[];
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
  /** An alias: the stored column it reads. */
  readonly aliasOf?: string;
  /** A filter-only column: the stored columns a filter on it tries (OR). */
  readonly anyOf?: readonly ColumnDef[];
  /** A filter-only column: rows whose `on` columns are among those of the other table's matching rows. */
  readonly lookup?: ColumnLookup;
  /** A filter-only column: a filter on another column of its value's row (ColumnDecl.maps_to). */
  readonly mapsTo?: ColumnMapsTo;
  /** Equality filters on this stored column run through a row id column (ColumnDecl.filter_via). */
  readonly via?: ColumnVia;
  /** Filters on this stored column run on the two columns it packs (ColumnDecl.packs). */
  readonly packs?: ColumnPacks;
  /** Filters on this column also bound the height through another table (ColumnDecl.follows_height). */
  readonly followsHeight?: ColumnFollows;
  /** Values listed only when a filter on the column names them, as declared (checked by the column's type). */
  readonly hiddenValues?: readonly string[];
  /** Zero is stored as NULL and read back as 0 (ColumnDecl.sparse). */
  readonly sparse?: true;
}
export interface ColumnLookup {
  readonly schema: string;
  readonly storage: string;
  readonly column: ColumnDef;
  readonly on: readonly string[];
  /** The other table's columns, paired with `on`. */
  readonly by: readonly string[];
}

export interface ColumnMapsTo {
  readonly schema: string;
  readonly storage: string;
  /** The column filtered. */
  readonly column: ColumnDef;
  /** The column the value is compared to (the greatest at or before it). */
  readonly by: ColumnDef;
}

export interface ColumnVia {
  /** This table's column holding the other table's `value`. */
  readonly column: ColumnDef;
  readonly schema: string;
  readonly storage: string;
  /** The other table's column holding the value. */
  readonly key: ColumnDef;
  /** The other table's column this table copies (its row id unless declared otherwise). */
  readonly value: string;
  /** The other table's orphan column: its orphaned rows are left out. */
  readonly orphan?: string;
  /** Filter values may also be the value itself (digits; a key never is). */
  readonly byValue: boolean;
  /** False: this table keeps only `column`, and reads the value from the other table's key (ColumnDecl.filter_via). */
  readonly stored: boolean;
  /** The storage name of the table the column belongs to (a query reading the value refers to its rows by it). */
  readonly owner: string;
}

/** The table whose rows give each height the column's value (ColumnDecl.follows_height). */
export interface ColumnFollows {
  readonly schema: string;
  readonly storage: string;
  /** The other table's column holding the value, and its height column. */
  readonly column: string;
  readonly height: string;
  /** The other table's orphan column: its orphaned rows are left out. */
  readonly orphan?: string;
}

/** A column whose value is `high << bits | low` (ColumnDecl.packs). */
export interface ColumnPacks {
  readonly high: ColumnDef;
  readonly low: ColumnDef;
  readonly bits: number;
  /** False: computed from the two on every read (ColumnDecl.packs). */
  readonly stored: boolean;
}

/** Filter-only columns cannot be selected. */
export function isFilterOnly(column: ColumnDef): boolean {
  return column.anyOf !== undefined || column.lookup !== undefined || column.mapsTo !== undefined;
}

/** The stored column a column reads (itself, or the column it is an alias of). */
export function storedName(column: ColumnDef): string {
  return column.aliasOf ?? column.name;
}

/**
 * Whether the table's rows hold the column (not one read through another table or computed: ColumnVia, ColumnPacks).
 */
export function isStored(column: ColumnDef): boolean {
  return column.via?.stored !== false && column.packs?.stored !== false;
}

/** The tables rows are stored in: the table itself, or its parts (TablePartsDecl). */
export function physicalTables(table: TableDef): TableDef[] {
  return table.parts ? [table.parts.main, ...table.parts.narrow.map((p) => p.table)] : [table];
}

/** The columns a table's rows hold, in order: what is created, written and copied. */
export function storedColumns(table: TableDef): ColumnDef[] {
  return table.columns.filter(isStored);
}
export interface IndexDef {
  readonly columns: readonly string[];
  readonly unique: boolean;
  readonly using: IndexMethod;
  /** IndexDecl.except, parsed by the leading column's type (empty: every row is indexed). */
  readonly except: readonly SqlValue[];
  /** IndexDecl.except as declared (an enum's labels, not their codes): the index's name and docs show these. */
  readonly exceptArgs: readonly string[];
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
  /** Later blocks a row waits for before it no longer changes (`settles_after`, 0: at once). */
  readonly settlesAfter: number;
  /** Codes of the tables this one is derived from (empty for tables written by handlers). */
  readonly derivedFrom: readonly string[];
  /**
   * The table's columns, in order: the stored ones (storedColumns), and those read through another table or computed.
   */
  readonly columns: readonly ColumnDef[];
  /** Aliases and filter-only columns: found by `column(name)`, never stored. */
  readonly virtualColumns: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  column(name: string): ColumnDef | undefined;
  /** Stored in parts (TablePartsDecl): `storage` is a view of them. */
  readonly parts?: TableParts;
  /** What its index names start with, if not `storage` (a main table keeps the names of its view's table). */
  readonly indexPrefix?: string;
  /** Stored in range partitions of the height (TablePartitionDecl): heights per partition. */
  readonly partitionSpan?: number;
}
/** A table stored in parts (TablePartsDecl): the tables that hold its rows, and which row goes where. */
export interface TableParts {
  /** The rows that fit no narrow part: every column (storage `{storage}_main`). */
  readonly main: TableDef;
  readonly narrow: ReadonlyArray<{
    readonly table: TableDef;
    readonly value: SqlValue;
    /** Its columns stored in a narrower type than the table's (TablePartsDecl.types): a row fits if each holds. */
    readonly narrowed: readonly ColumnDef[];
  }>;
  readonly by: ColumnDef;
  /** The stored columns that no narrow part keeps, each with the value its rows have there. */
  readonly constants: ReadonlyArray<{ readonly column: ColumnDef; readonly value: SqlValue | null }>;
  /** The stored columns that no narrow part keeps and that follow the height: the view reads them there. */
  readonly followed: readonly ColumnDef[];
}
export interface SeriesColumnDef {
  readonly name: string;
  readonly agg: Aggregation;
  readonly source?: ColumnDef;
  readonly weight?: ColumnDef;
}
export interface SeriesDef {
  readonly code: string;
  readonly plugin: string;
  readonly table: TableDef;
  readonly timeColumn: ColumnDef;
  readonly partition: readonly ColumnDef[];
  /** Conditions every aggregated row meets (SeriesDecl.where), values parsed by the column's type. */
  readonly where: readonly SeriesCondition[];
  readonly description: string;
  readonly columns: readonly SeriesColumnDef[];
}
export interface SeriesCondition {
  readonly column: ColumnDef;
  readonly op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';
  readonly value: string | number | boolean;
}

export interface RouteParamDef {
  readonly name: string;
  /** Any of them matches the value (one for most parameters). */
  readonly columns: readonly ColumnDef[];
  readonly what: string;
  readonly resolve?: string;
}
export interface RouteFieldDef {
  readonly name: string;
  readonly column: ColumnDef;
  readonly render?: FieldRender;
}
export interface RouteRequirementDef {
  readonly table: TableDef;
  /** Path parameter → column of `table`. */
  readonly params: ReadonlyArray<{ readonly name: string; readonly column: ColumnDef }>;
  readonly where: ReadonlyArray<{ readonly column: ColumnDef; readonly value: SqlValue }>;
  readonly notFound: string;
}
export interface RouteDef {
  readonly path: string;
  readonly plugin: string;
  readonly scope: string;
  readonly kind: 'object' | 'list';
  readonly table: TableDef;
  readonly summary: string;
  readonly params: readonly RouteParamDef[];
  readonly fields: readonly RouteFieldDef[];
  readonly notFound: string;
  readonly finalHeight?: ColumnDef;
  readonly order: 'asc' | 'desc';
  readonly requires?: RouteRequirementDef;
  /** OpenAPI: where valid path parameters come from (none without path parameters). */
  readonly docParams?: { readonly table: string; readonly columns: Readonly<Record<string, string>> };
  readonly profile: RouteProfile;
  /** The record shaper's name; `fields` is empty then. */
  readonly record?: string;
  /** The table as list filters see it: with the declared aliases. */
  readonly filters: TableDef;
  readonly openOnly?: ColumnDef;
  /** The switches parsed per request and handed to the record shaper (none for most routes). */
  readonly switches: readonly ExplorerSwitch[];
}

/** The Postgres schema name of a plugin: `core-chain` → `core_chain`. */
export function pluginSchema(plugin: string): string {
  return plugin.replace(/-/g, '_');
}
