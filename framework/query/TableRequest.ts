import { ColumnDef, ColumnVia, isFilterOnly, storedName, TableDef } from '../catalog/CatalogModel';
import { Operator, SqlValue, ValueError } from '../catalog/types/ColumnType';
import { ApiError } from '../errors/ApiError';
import { ListProfile } from './ListProfile';
import { MAX_LIST_VALUES } from './ValueLists';

export interface Filter {
  readonly column: ColumnDef;
  readonly op: Operator;
  /** Parsed values: one for comparisons, two for `rg`, one or more for `in`/`nin`; null: SQL NULL (isNull). */
  readonly values: readonly SqlValue[];
  /**
   * For a column filtered through an id (ColumnDecl.filter_via): the ids of the other table's rows
   * holding the values, looked up before the query (lookUpKeys), by each column's ColumnVia (a
   * filter-only column's columns may each have their own).
   */
  readonly keyIds?: ReadonlyMap<ColumnVia, readonly SqlValue[]>;
}

export interface TableRequest {
  readonly columns: readonly ColumnDef[];
  readonly filters: readonly Filter[];
  readonly limit: number;
  readonly order: 'asc' | 'desc';
  readonly cursor?: string;
  readonly offset: number;
}

export type QueryArgs = Record<string, string | string[] | undefined>;

/** List parameters, and flags of the original's clients that change nothing here (the SDK always sends `verbose`). */
const RESERVED = new Set(['columns', 'limit', 'cursor', 'order', 'offset', 'filename', 'verbose']);
const OPERATORS = new Set<string>(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg', 're']);
const MULTI_VALUE = new Set<Operator>(['in', 'nin', 'rg']);
/** The operators a column filtered through an id (ColumnDecl.filter_via) answers by that id. */
export const EQUALITY_OPS: ReadonlySet<Operator> = new Set<Operator>(['eq', 'ne', 'in', 'nin']);
const UINT64 = /^\d{1,20}$/;

/**
 * Turns query arguments into a validated request against one catalog table. Every user-supplied name
 * is checked against the catalog and every value parsed by its column's type, so nothing the user
 * types reaches SQL except as a bound parameter.
 */
export function parseTableRequest(table: TableDef, args: QueryArgs, profile: ListProfile): TableRequest {
  return {
    columns: parseColumns(table, single(args, 'columns')),
    filters: withHiddenRows(table, parseFilters(table, args)),
    limit: parseLimit(single(args, 'limit'), profile),
    order: parseOrder(single(args, 'order')),
    cursor: parseCursor(single(args, 'cursor')),
    offset: parseOffset(single(args, 'offset'), profile),
  };
}

function single(args: QueryArgs, key: string): string | undefined {
  const v = args[key];
  if (Array.isArray(v)) {
    if (v.length > 1) throw ApiError.badQuery(`parameter '${key}' given more than once`);
    return v[0];
  }
  return v;
}

function parseColumns(table: TableDef, arg: string | undefined): ColumnDef[] {
  if (arg === undefined || arg.trim() === '') return table.columns.filter((c) => c.inDefault);
  const seen = new Set<string>();
  return arg.split(',').map((raw) => {
    const name = raw.trim();
    const col = table.column(name);
    if (!col) throw ApiError.invalid(`unknown column '${name}'`);
    if (isFilterOnly(col)) throw ApiError.invalid(`column '${name}' can only be filtered on`);
    if (seen.has(name)) throw ApiError.invalid(`duplicate column '${name}'`);
    seen.add(name);
    return col;
  });
}

function parseLimit(arg: string | undefined, profile: ListProfile): number {
  if (arg === undefined || arg === '') return profile.defaultLimit;
  if (!/^\d+$/.test(arg)) throw ApiError.badQuery(`invalid limit '${arg}': expected a non-negative integer`);
  const n = Number(arg);
  if (n === 0) return profile.zeroLimitIsEmpty ? 0 : profile.defaultLimit;
  return Math.min(n, profile.maxLimit);
}

function parseOrder(arg: string | undefined): 'asc' | 'desc' {
  if (arg === undefined || arg === '' || arg === 'asc') return 'asc';
  if (arg === 'desc') return 'desc';
  throw ApiError.badQuery(`invalid order '${arg}': expected asc or desc`);
}

function parseCursor(arg: string | undefined): string | undefined {
  if (arg === undefined || arg === '') return undefined;
  if (!UINT64.test(arg) || BigInt(arg) > 2n ** 64n - 1n)
    throw ApiError.invalid(`invalid cursor value '${arg}': expected a row_id`);
  // Past every storable row_id (bigint): the same as the largest one.
  return BigInt(arg) > 2n ** 63n - 1n ? (2n ** 63n - 1n).toString() : arg;
}

function parseOffset(arg: string | undefined, profile: ListProfile): number {
  if (arg === undefined || arg === '') return 0;
  if (!profile.allowOffset) throw ApiError.invalid("unknown parameter 'offset' (use cursor)");
  if (!/^\d{1,9}$/.test(arg)) throw ApiError.badQuery(`invalid offset '${arg}': expected a non-negative integer`);
  return Number(arg);
}

function parseFilters(table: TableDef, args: QueryArgs): Filter[] {
  const filters: Filter[] = [];
  let listed = 0;
  for (const [key, value] of Object.entries(args)) {
    if (RESERVED.has(key) || value === undefined) continue;
    const dot = key.lastIndexOf('.');
    const name = dot < 0 ? key : key.slice(0, dot);
    const opName = dot < 0 ? 'eq' : key.slice(dot + 1);
    const column = table.column(name);
    if (!column) throw ApiError.invalid(`unknown column '${name}'`);
    if (!OPERATORS.has(opName)) throw ApiError.invalid(`invalid filter mode '${opName}' on column '${name}'`);
    const op = opName as Operator;
    if (!column.type.operators.includes(op)) {
      throw ApiError.invalid(`filter mode '${op}' is not supported on column '${name}' of type ${column.type.name}`);
    }
    // A repeated key is several conditions, all of which must hold.
    for (const arg of Array.isArray(value) ? value : [value]) {
      filters.push(parseFilter(column, op, arg, MAX_LIST_VALUES - listed));
      listed += filters[filters.length - 1].values.length;
    }
  }
  return filters;
}

/**
 * Lists leave out rows with a column's hidden values unless an `eq`/`in` filter on that column names
 * one of them, and orphans (a reorg took their block off the main chain) unless a filter is on the
 * orphan column: a series aggregates the rows its table lists.
 */
function withHiddenRows(table: TableDef, filters: Filter[]): Filter[] {
  const hide: Filter[] = table.columns
    .filter((column) => column.hiddenValues !== undefined)
    .map((column) => ({ column, op: 'nin' as const, values: column.hiddenValues!.map((v) => column.type.parse(v)) }))
    .filter(({ column, values: hidden }) => {
      const named = filters.filter((f) => storedName(f.column) === column.name && (f.op === 'eq' || f.op === 'in'));
      return !named.some((f) => f.values.some((v) => hidden.includes(v)));
    });
  const orphan = table.orphanColumn === undefined ? undefined : table.column(table.orphanColumn);
  if (orphan && !filters.some((f) => f.column === orphan)) hide.push(mainChainOnly(orphan));
  return [...filters, ...hide];
}

/** The filter that leaves orphans out: `is_orphan = false`. */
function mainChainOnly(orphan: ColumnDef): Filter {
  return { column: orphan, op: 'eq', values: [false] };
}

/** An id given instead of a key (ColumnDecl.filter_via by_value): digits, which no hash or address is. */
export function isId(v: unknown): boolean {
  return typeof v === 'string' && /^\d+$/.test(v);
}

/** `room`: how many more values the request's filters may hold (MAX_LIST_VALUES), checked before any is parsed. */
function parseFilter(column: ColumnDef, op: Operator, arg: string, room: number): Filter {
  // Postgres text cannot hold NUL; say so instead of letting the database fail.
  if (arg.includes('\0')) throw ApiError.invalid(`invalid ${column.name} filter value: NUL characters are not allowed`);
  const parts = MULTI_VALUE.has(op) ? arg.split(',') : [arg];
  if (parts.length > room) throw ApiError.invalid(`too many filter values: at most ${MAX_LIST_VALUES} in one request`);
  if (op === 'rg' && parts.length !== 2) {
    throw ApiError.invalid(
      `invalid ${column.name} filter value '${arg}': range needs exactly two comma-separated values`,
    );
  }
  if (op === 're') {
    if (arg.length > 1000) throw ApiError.invalid(`regular expression on '${column.name}' is too long`);
    return { column, op, values: [arg] };
  }
  try {
    // A column filtered through an id that takes the id itself (op `block`: a hash or a height).
    const byValue = column.via?.byValue === true && EQUALITY_OPS.has(op);
    const parse = (p: string): SqlValue => (byValue && isId(p) ? column.via!.column.type : column.type).parse(p);
    return { column, op, values: parts.map((p) => (isNull(column, op, p) ? null : parse(p))) };
  } catch (e) {
    if (e instanceof ValueError) throw ApiError.invalid(`invalid ${column.name} filter value '${arg}': ${e.message}`);
    throw e;
  }
}

/**
 * Arguments that stand for SQL NULL in equality filters (eq/in: the rows without a value; ne/nin:
 * those with one): `null` on a nullable column, and an empty value on an address column, which the
 * original reads as account id 0, no account (`op?creator.ne=`: the operations with a creator).
 */
function isNull(column: ColumnDef, op: Operator, arg: string): boolean {
  if (!EQUALITY_OPS.has(op)) return false;
  return (arg === 'null' && column.nullable) || (arg === '' && column.type.name === 'address');
}

/**
 * An equality filter from a path segment (e.g. the pool address of /defi/dex/{address}/events), parsed
 * by the column's type; a value that does not parse is a malformed resource id (400/1301).
 */
export function pathFilter(table: TableDef, columnName: string, raw: string): Filter {
  const column = table.column(columnName);
  if (!column) throw new Error(`table '${table.code}' has no column '${columnName}'`);
  try {
    return { column, op: 'eq', values: [column.type.parse(raw)] };
  } catch (e) {
    if (e instanceof ValueError) throw ApiError.malformedId(`invalid ${columnName} '${raw}': ${e.message}`);
    throw e;
  }
}
