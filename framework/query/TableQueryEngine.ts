import { Knex } from 'knex';
import { injectable } from 'tsyringe';
import { ColumnDef, ColumnLookup, ColumnMapsTo, ColumnPacks, ColumnVia, TableDef } from '../catalog/CatalogModel';
import { Encoding, SqlValue } from '../catalog/types/ColumnType';
import { Database } from '../storage/Database';
import { quote } from '../storage/SchemaMigrator';
import { columnSql } from './ColumnSql';
import { whereIndexedEquality, whereInMergedPages } from './IndexedEquality';
import { EQUALITY_OPS, Filter, isId, TableRequest } from './TableRequest';
import { amongSql, arrayParameter, equalsSql } from './ValueLists';

export type RawRow = (string | null)[];

const COMPARISON: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * The one engine behind every catalog collection (tables, DeFi lists, explorer lists). It reads in
 * keyset-paged chunks ordered by row_id, so a 50,000-row answer streams out chunk by chunk, memory
 * stays bounded, and on PGlite's single connection the indexer can write between chunks.
 * Each row comes back as the requested columns' text (see ColumnType.select) followed by its row_id.
 */
@injectable()
export class TableQueryEngine {
  chunkSize = 5000;

  constructor(private readonly db: Database) {}

  async *chunks(table: TableDef, request: TableRequest, enc: Encoding): AsyncGenerator<RawRow[]> {
    const req = await lookUpKeys(this.db.reader, request);
    let remaining = req.limit;
    let after = req.cursor;
    let offset = req.offset;
    while (remaining > 0) {
      const size = Math.min(remaining, this.chunkSize);
      const rows = await this.db.selectRows(this.query(table, req, enc, after, offset, size));
      if (rows.length === 0) return;
      yield rows;
      remaining -= rows.length;
      if (rows.length < size) return;
      after = rows[rows.length - 1][req.columns.length] as string;
      offset = 0;
    }
  }

  /**
   * One chunk's SELECT, of a request whose keys were looked up; public so the tables benchmark's floor runs the very
   * same SQL.
   */
  query(
    table: TableDef,
    req: TableRequest,
    enc: Encoding,
    after: string | undefined,
    offset: number,
    size: number,
  ): Knex.QueryBuilder {
    const knex = this.db.reader;
    // Aliased so that ORDER BY row_id names the stored column, never a text rendering of it.
    const exprs = req.columns.map((c, i) => `${c.type.select(columnSql(c), enc)} as "c${i}"`);
    exprs.push('"row_id"::text as "k"');
    const q = knex
      .withSchema(table.schema)
      .from(table.storage)
      .select(knex.raw(exprs.join(', ')));
    const split = splitPages(table, req.filters);
    if (split) {
      const pages = split.parts.map((part) =>
        page(
          knex.withSchema(table.schema).from(table.storage).select('row_id'),
          table,
          [...split.others, part],
          req.order,
          after,
          size + offset,
        ),
      );
      return whereInMergedPages(knex, q, pages, req.order, size, offset);
    }
    page(q, table, req.filters, req.order, after, size);
    if (offset > 0) q.offset(offset);
    return q;
  }
}

/** Filters, row-id bounds, cursor, order and limit of one page of rows. */
function page(
  q: Knex.QueryBuilder,
  table: TableDef,
  filters: readonly Filter[],
  order: 'asc' | 'desc',
  after: string | undefined,
  size: number,
): Knex.QueryBuilder {
  const lead = leadingEquality(table, filters);
  applyFilters(q, lead ? filters.filter((f) => f !== lead.filter) : filters);
  if (lead) whereIndexedEquality(q, lead.column.name, lead.value as Knex.Value, order);
  boundRowIds(q, table, filters);
  if (after !== undefined) q.whereRaw(`"row_id" ${order === 'asc' ? '>' : '<'} ?`, [after]);
  return q.orderBy('row_id', order).limit(size);
}

/**
 * An equality filter (or a list of one) on one value of a stored column, or through an id of its id
 * column (op `sender`, flow `address`), that leads an index with the row id: to be read by that
 * index in order (whereIndexedEquality, which says why: for an account idle since long, 600,000
 * rows read here for 20, 0.16 s, against 0.1 ms).
 */
function leadingEquality(
  table: TableDef,
  filters: readonly Filter[],
): { filter: Filter; column: ColumnDef; value: SqlValue } | undefined {
  for (const filter of filters) {
    if (
      (filter.op !== 'eq' && filter.op !== 'in') ||
      filter.column.anyOf ||
      filter.column.lookup ||
      filter.column.packs
    )
      continue;
    if (filter.values.includes(null)) continue;
    const via = filter.column.via;
    const column = via?.column ?? filter.column;
    // Through an id: the one id looked up (lookUpKeys) or given as such (`block=<height>`).
    const values = via && !(via.byValue && isId(filter.values[0])) ? filter.keyIds?.get(via) : filter.values;
    if (values?.length !== 1) continue;
    if (leadsIndex(table, column)) return { filter, column, value: values[0] };
  }
  return undefined;
}

/** Whether a btree index of the table is led by the stored column and then the row id: one value of
 * the column is read by it in row-id order, without a sort. */
export function leadsIndex(table: TableDef, column: ColumnDef): boolean {
  return table.indexes.some(
    (ix) => ix.using === 'btree' && ix.columns[0] === column.name && ix.columns[1] === 'row_id',
  );
}

/** Most pages one filter is split into; a longer list is read as one page per column. */
const MAX_PAGES = 32;

/**
 * A filter matching any of several columns (op `address`: sender, receiver, creator or baker) or
 * several values (`address.in=…`), on columns that each lead an index with the row id, to be read
 * as one page per column and value, merged. Why: no index answers the OR in row-id order, so
 * Postgres either reads every row of the accounts in any role and sorts them (a baker's millions of
 * attestations) or walks the row-id index filtering, through all rows since the accounts' last (an
 * account idle for years: the table). Each page is one value on one column, read by its index in
 * order (leadingEquality), so it reads at most the rows answered.
 */
function splitPages(table: TableDef, filters: readonly Filter[]): { parts: Filter[]; others: Filter[] } | undefined {
  for (const filter of filters) {
    if ((filter.op !== 'eq' && filter.op !== 'in') || filter.column.lookup || filter.column.packs) continue;
    // NULL is no value of an index (applyNull answers it).
    if (filter.values.includes(null)) continue;
    const columns = filter.column.anyOf ?? [filter.column];
    if (!columns.every((c) => leadsIndex(table, c.via?.column ?? c))) continue;
    const parts = columns.flatMap((column): Filter[] => {
      const via = column.via;
      const direct = via?.byValue ? filter.values.filter(isId) : [];
      const found = via && filter.keyIds?.get(via);
      // Keys not looked up (an InitPlan) or too many values: the column's page as one.
      const values = !via
        ? filter.values
        : direct.length === filter.values.length
          ? direct
          : found && [...direct, ...found];
      if (!values || values.length * columns.length > MAX_PAGES) return [{ ...filter, column }];
      return values.map((v) => ({ column, op: 'eq', values: [v], ...(via ? { keyIds: new Map([[via, [v]]]) } : {}) }));
    });
    if (parts.length > 1) return { parts, others: filters.filter((f) => f !== filter) };
  }
  return undefined;
}

/**
 * The request with its filters through an id (op `sender`, `address`, `block`; flow `address`)
 * given the ids their values name, looked up now (/tables, the explorer's and DeFi lists). Why: as
 * a subquery the id is an InitPlan, which Postgres plans for an average row of the other table: for
 * an account's newest rows it then reads every row of the account by a bitmap and sorts them,
 * 0.45 s for an account with 500,000 flows among 50,000 accounts of about 20 (a baker's millions on
 * mainnet: seconds). The id as a value, which the statistics know as a frequent one, has it read the
 * account's index backwards for just the rows answered (0.1 ms); an account they do not know has
 * few rows.
 */
export async function lookUpKeys(knex: Knex, req: TableRequest): Promise<TableRequest> {
  const found = new Map<string, Promise<SqlValue[]>>();
  const filters = await Promise.all(
    req.filters.map(async (f) => {
      if (!EQUALITY_OPS.has(f.op) || f.column.lookup) return f;
      const keyIds = new Map<ColumnVia, readonly SqlValue[]>();
      for (const via of (f.column.anyOf ?? [f.column]).map((c) => c.via)) {
        const keys = via ? f.values.filter((v) => v !== null && !(via.byValue && isId(v))) : [];
        if (!via || keys.length === 0) continue;
        // The four roles of op `address` name the same accounts: one lookup.
        const key = JSON.stringify([via.schema, via.storage, via.key.name, via.value, via.orphan, keys]);
        if (!found.has(key)) {
          const ids = knex
            .withSchema(via.schema)
            .from(via.storage)
            .select(knex.raw(`${quote(via.value)}::text as id`));
          if (via.orphan) ids.where(via.orphan, false);
          applyFilter(ids, { column: via.key, op: keys.length === 1 ? 'eq' : 'in', values: keys });
          found.set(
            key,
            ids.then((rows: Array<{ id: string }>) => rows.map((r) => r.id)),
          );
        }
        keyIds.set(via, await found.get(key)!);
      }
      return keyIds.size === 0 ? f : { ...f, keyIds };
    }),
  );
  return { ...req, filters };
}

export function applyFilters(q: Knex.QueryBuilder, filters: readonly Filter[]): void {
  for (const f of filters) {
    // A filter-only column (op `address`: sender, receiver, baker or creator) matches when any of its
    // columns does; its negations (ne, nin) when none does.
    const anyOf = f.column.anyOf;
    const mapsTo = f.column.mapsTo;
    if (f.column.lookup) applyLookup(q, f, f.column.lookup);
    else if (mapsTo) applyFilter(q, { ...f, column: mapsTo.column }, mapsTo);
    else if (!anyOf) applyFilter(q, f);
    else if (f.op === 'ne' || f.op === 'nin')
      q.where((all) => anyOf.forEach((column) => applyFilter(all, { ...f, column })));
    else q.where((any) => anyOf.forEach((column) => any.orWhere((one) => applyFilter(one, { ...f, column }))));
  }
}

/**
 * A bound on an append table's height (from a filter on it, on a column packing it, op `id`, or on a
 * column following it, op `cycle` and `time`), said again as a bound on its row id. Why: the answer
 * is in row-id order, and Postgres, which does not know that row ids grow with the height, walks the
 * row-id index from its start to the first row above a height, filtering: the whole table before it
 * (`height.gte` of a recent block on 5M rows: 0.77 s, mainnet's op table minutes). The appended rows
 * of a block carry its height (IndexBatch) and get their row ids in block order, so the first row at
 * or above the height, found by the height index, bounds every other: the answer is the same.
 */
function boundRowIds(q: Knex.QueryBuilder, table: TableDef, filters: readonly Filter[]): void {
  const column = table.heightColumn;
  // Without a B-tree led by the height, finding that first row would read the table.
  if (
    table.kind !== 'append' ||
    !column ||
    !table.indexes.some((ix) => ix.columns[0] === column && ix.using === 'btree')
  )
    return;
  const height = quote(column);
  const from = `${quote(table.schema)}.${quote(table.storage)}`;
  for (const f of filters) {
    // Only the row ids: a height range whose ends Postgres cannot see when it plans (a cycle's) would
    // have it read the range by the height index and sort it, where the row-id index reads it in order.
    const { lower, upper } = heightBounds(f, table.column(column)!);
    if (lower)
      q.whereRaw(
        `"row_id" >= (select "row_id" from ${from} where ${height} ${lower.op} ${lower.sql} order by ${height}, "row_id" limit 1)`,
        lower.bindings,
      );
    if (upper)
      q.whereRaw(
        `"row_id" <= (select "row_id" from ${from} where ${height} ${upper.op} ${upper.sql} order by ${height} desc, "row_id" desc limit 1)`,
        upper.bindings,
      );
  }
}

/** `height {op} {sql}`: a bound on the height, the value or subquery `sql` taking `bindings`. */
interface HeightBound {
  op: string;
  sql: string;
  bindings: SqlValue[];
}

/**
 * The bounds a filter puts on the height: its own, those of a column packing it (op `id` = height <<
 * 16 | op_n), or those of a column following it (op `cycle`: the first and last main-chain block of
 * the cycles asked for, by the block table's index on `cycle`).
 */
function heightBounds(f: Filter, height: ColumnDef): { lower?: HeightBound; upper?: HeightBound } {
  const lower =
    f.op === 'gt' || f.op === 'gte' || f.op === 'rg' || (f.op === 'eq' && f.column.followsHeight !== undefined);
  const upper =
    f.op === 'lt' || f.op === 'lte' || f.op === 'rg' || (f.op === 'eq' && f.column.followsHeight !== undefined);
  const first = f.values[0];
  const last = f.values[f.values.length - 1];
  const ph = height.type.placeholder;
  const packs = f.column.packs;
  const follows = f.column.followsHeight;
  if (f.column.name === height.name) {
    return {
      lower: lower ? { op: f.op === 'gt' ? '>' : '>=', sql: ph, bindings: [first] } : undefined,
      upper: upper ? { op: f.op === 'lt' ? '<' : '<=', sql: ph, bindings: [last] } : undefined,
    };
  }
  if (packs?.high.name === height.name) {
    return {
      lower: lower ? { op: '>=', sql: ph, bindings: [splitPacked(first, packs)[0]] } : undefined,
      upper: upper ? { op: '<=', sql: ph, bindings: [splitPacked(last, packs)[0]] } : undefined,
    };
  }
  if (!follows) return {};
  const col = quote(follows.column);
  const h = quote(follows.height);
  const from = `${quote(follows.schema)}.${quote(follows.storage)}${follows.orphan ? ` where not ${quote(follows.orphan)} and` : ' where'}`;
  const value = f.column.type.placeholder;
  // The first (last) height at such a value: the value never decreases along the main chain. (`+ 0`:
  // ordered by the height alone, as under `cycle = 7`, Postgres would walk the height index from one
  // end, filtering, where the column's index finds the rows.)
  const at = (op: string, dir: string, v: SqlValue): HeightBound => ({
    op: dir === 'asc' ? '>=' : '<=',
    sql: `(select ${h} from ${from} ${col} ${op} ${value} order by ${col} ${dir}, ${h} + 0 ${dir} limit 1)`,
    bindings: [v],
  });
  return {
    lower: lower ? at(f.op === 'gt' ? '>' : f.op === 'eq' ? '=' : '>=', 'asc', first) : undefined,
    upper: upper ? at(f.op === 'lt' ? '<' : f.op === 'eq' ? '=' : '<=', 'desc', last) : undefined,
  };
}

/**
 * Rows whose `column` is one of `values`, by the catalog's rule for that column (through its row id
 * column when it has one: ColumnDecl.filter_via), for plugin queries that filter outside a request.
 */
export function whereColumnIn(q: Knex.QueryBuilder, column: ColumnDef, values: readonly SqlValue[]): Knex.QueryBuilder {
  applyFilter(q, { column, op: values.length === 1 ? 'eq' : 'in', values });
  return q;
}

/**
 * The SQL of a value mapped to its row's column (ColumnDecl.maps_to): `value` is the value's SQL, by
 * default its one placeholder of the `by` column's type.
 */
function mappedValue(m: ColumnMapsTo, value = m.by.type.placeholder): string {
  const by = quote(m.by.name);
  const from = `${quote(m.schema)}.${quote(m.storage)}`;
  return `coalesce((select ${quote(m.column.name)} from ${from} where ${by} <= ${value} order by ${by} desc limit 1), -1)`;
}

/** The array of a list's values mapped to their rows' column, binding the list as one parameter. */
function mappedList(m: ColumnMapsTo): string {
  return `array(select ${mappedValue(m, 'v')} from unnest(${arrayParameter(m.by.type)}) as v)`;
}

/** A lookup column (flow `op`): the row's `on` columns are (ne/nin: are not) among the matching rows'. */
function applyLookup(q: Knex.QueryBuilder, f: Filter, lookup: ColumnLookup): void {
  const negated = f.op === 'ne' || f.op === 'nin';
  const positive: Filter = { ...f, column: lookup.column, op: f.op === 'ne' ? 'eq' : f.op === 'nin' ? 'in' : f.op };
  const matching = function (this: Knex.QueryBuilder): void {
    this.withSchema(lookup.schema)
      .from(lookup.storage)
      .select([...lookup.by]);
    applyFilter(this, positive);
  };
  const on = [...lookup.on];
  if (negated) q.whereNotIn(on, matching);
  else q.whereIn(on, matching);
}

/**
 * An equality filter on a column kept by id too (op `sender` by `sender_id`, op `block` by `height`):
 * the id of the other table's row holding the value (one row: its key is unique, or the orphans are
 * left out), so the id column's index serves the filter and the order by row_id (a join would not).
 * The ids come looked up already (lookUpKeys: /tables and the explorer's lists), or else are found
 * once before the scan as an InitPlan (plugin queries); ids given as such (`block=<height>`) are
 * compared as they are. The id is null exactly where the value is, so ne/nin keep the rows without
 * one, as on the column itself.
 */
function applyVia(q: Knex.QueryBuilder, f: Filter, via: ColumnVia): void {
  const direct = via.byValue ? f.values.filter(isId) : [];
  const keys = f.values.filter((v) => !direct.includes(v));
  const found = f.keyIds?.get(via);
  const id = quote(via.column.name);
  const tests: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (keys.length > 0 && !found) {
    const ids = q.client.queryBuilder().withSchema(via.schema).from(via.storage).select(via.value);
    if (via.orphan) ids.where(via.orphan, false);
    applyFilter(ids, { column: via.key, op: keys.length === 1 ? 'eq' : 'in', values: keys });
    tests.push(keys.length === 1 ? `${id} = (?)` : `${id} = any(array(?))`);
    bindings.push(ids);
  }
  const values = [...direct, ...(found ?? [])];
  if (values.length > 0) {
    tests.push(values.length === 1 ? `${id} = ?` : amongSql(id, arrayParameter(via.column.type), false));
    bindings.push(values.length === 1 ? values[0] : (values as Knex.RawBinding));
  }
  // Keys that name no row: no id matches.
  const matches = tests.length === 0 ? 'false' : tests.length === 1 ? tests[0] : `(${tests.join(' or ')})`;
  if (f.op === 'eq' || f.op === 'in') q.whereRaw(matches, bindings);
  // No row for the key makes the comparison null: not a match.
  else q.whereRaw(`(${id} is null or not coalesce(${matches}, false))`, bindings);
}

/**
 * A filter on a column packing two others (op `id` = height << 16 | op_n) as conditions on them that
 * an index on the high one answers: equality and comparisons on the pair; `in` by the heights, then
 * the ids (no row-value IN list: PGlite breaks on long ones). ne/nin use the column itself.
 */
const PACKED = new Set(['eq', 'in', 'gt', 'gte', 'lt', 'lte', 'rg']);

function applyPacked(q: Knex.QueryBuilder, f: Filter, packs: ColumnPacks): void {
  const [high, low] = [quote(packs.high.name), quote(packs.low.name)];
  if (f.op === 'in') {
    const heights = [...new Set(f.values.map((v) => splitPacked(v, packs)[0]))];
    const inHeights = amongSql(high, arrayParameter(packs.high.type), false);
    const inIds = amongSql(columnSql(f.column), arrayParameter(f.column.type), false);
    q.whereRaw(`${inHeights} and ${inIds}`, [heights, f.values.map(String)]);
    return;
  }
  // A range's bounds on the high column, said apart: Postgres does not estimate a row comparison (it
  // guesses a third of the table), so with a limit it would walk the row-id index from one end and
  // filter, through the whole table for an old block's ids. (A row equality it splits itself.)
  const lo = splitPacked(f.values[0], packs);
  const hi = f.op === 'rg' ? splitPacked(f.values[1], packs) : lo;
  if (f.op === 'gt' || f.op === 'gte' || f.op === 'rg') q.whereRaw(`${high} >= ?`, [lo[0]]);
  if (f.op === 'lt' || f.op === 'lte' || f.op === 'rg') q.whereRaw(`${high} <= ?`, [hi[0]]);
  if (f.op === 'rg') q.whereRaw(`(${high}, ${low}) >= (?, ?) and (${high}, ${low}) <= (?, ?)`, [...lo, ...hi]);
  else q.whereRaw(`(${high}, ${low}) ${COMPARISON[f.op]} (?, ?)`, lo);
}

/** A packed value's high and low columns' values, as decimal text. */
function splitPacked(v: SqlValue, packs: ColumnPacks): [string, string] {
  const n = BigInt(v as string);
  const bits = BigInt(packs.bits);
  return [(n >> bits).toString(), (n & ((1n << bits) - 1n)).toString()];
}

/**
 * An equality filter naming SQL NULL (TableRequest's isNull): eq/in match the rows without a value
 * (or with one of the other values), ne/nin those with a value (and none of the others). A column
 * kept by id tests its id, null exactly where the value is.
 */
function applyNull(q: Knex.QueryBuilder, f: Filter, mapped: ColumnMapsTo | undefined): void {
  const ref = f.column.via ? quote(f.column.via.column.name) : columnSql(f.column);
  const negated = f.op === 'ne' || f.op === 'nin';
  const others: Filter = { ...f, values: f.values.filter((v) => v !== null) };
  q.where((w) => {
    w.whereRaw(`${ref} is ${negated ? 'not ' : ''}null`);
    if (others.values.length === 0) return;
    if (negated) w.where((x) => applyFilter(x, others, mapped));
    else w.orWhere((x) => applyFilter(x, others, mapped));
  });
}

/** `mapped`: the values are mapped to their rows' column first (ColumnDecl.maps_to). A list binds one array. */
function applyFilter(q: Knex.QueryBuilder, f: Filter, mapped?: ColumnMapsTo): void {
  if (f.values.includes(null)) return applyNull(q, f, mapped);
  if (f.column.via && EQUALITY_OPS.has(f.op)) return applyVia(q, f, f.column.via);
  if (f.column.packs && PACKED.has(f.op)) return applyPacked(q, f, f.column.packs);
  const ref = columnSql(f.column);
  const ph = mapped ? mappedValue(mapped) : f.column.type.placeholder;
  switch (f.op) {
    case 'ne':
      // "not equal" includes rows where the column is empty.
      q.whereRaw(`${ref} is distinct from ${ph}`, [f.values[0]]);
      break;
    case 'in':
    case 'nin': {
      const array = mapped ? mappedList(mapped) : arrayParameter(f.column.type);
      const among = f.op === 'in' ? equalsSql(f.column.type, ref, array, true) : undefined;
      const list = f.values as Knex.RawBinding;
      if (among) q.whereRaw(among.sql, Array(among.uses).fill(list));
      else q.whereRaw(amongSql(ref, array, true), [list]);
      break;
    }
    case 'rg':
      q.whereRaw(`${ref} between ${ph} and ${ph}`, [f.values[0], f.values[1]]);
      break;
    case 're':
      q.whereRaw(`${ref} ~ ?`, [f.values[0]]);
      break;
    case 'eq': {
      const eq = equalsSql(f.column.type, ref, ph, false);
      q.whereRaw(eq.sql, Array(eq.uses).fill(f.values[0]));
      break;
    }
    default:
      q.whereRaw(`${ref} ${COMPARISON[f.op]} ${ph}`, [f.values[0]]);
  }
}
