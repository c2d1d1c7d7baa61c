import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { ColumnDef, TableDef } from '../catalog/CatalogModel';
import type { TableHandle } from '../catalog/TableHandle';
import type { ColumnType } from '../catalog/types/ColumnType';
import type { TextRow } from '../http/RouteShapers';
import { columnSql } from '../query/ColumnSql';
import { arrayParameter, equalsSql } from '../query/ValueLists';
import { Database, type SelectOptions } from '../storage/Database';

/** A row of a catalog table as explorer objects show it: tez numbers, RFC3339 times, booleans, hex bytes. */
export type ExplorerRow = Record<string, unknown>;

/** Postgres functions take at most 100 arguments (FUNC_MAX_ARGS): wider rows come as several arrays. */
const JSON_ARRAY_ARGS = 100;

/**
 * Reads rows of one catalog table rendered by the columns' own types (the same text the object
 * collections send), so explorer objects and `/tables` never disagree on a value. A row comes as one
 * JSON array of the rendered texts (`json_build_array`): the driver describes and splits one column
 * instead of fifty on every execution, which took more of a hot object route than JSON.parse does.
 * The arrays are selected under positional aliases: an alias named like a column would make
 * `ORDER BY row_id` sort the alias instead of the stored number.
 * `R` is the type of a row read: built with `CatalogRows.of` and a generated handle, the table's
 * `…Read` type (of the selected columns), so that plugins read columns without casts.
 */
export class CatalogRows<R extends object = ExplorerRow> {
  private readonly columns: readonly ColumnDef[];
  /** The rendered columns' SQL, built once: a hot route asks for a query per request. */
  private readonly selectList: string;

  constructor(
    private readonly db: Database,
    readonly table: TableDef,
    columnNames?: readonly string[],
  ) {
    this.columns = columnNames ? columnNames.map((n) => requireColumn(table, n)) : table.columns;
    const rendered = this.columns.map((c) => c.type.select(columnSql(c), 'object'));
    const arrays: string[] = [];
    for (let i = 0; i < rendered.length; i += JSON_ARRAY_ARGS)
      arrays.push(
        `json_build_array(${rendered.slice(i, i + JSON_ARRAY_ARGS).join(', ')})::text as "j${arrays.length}"`,
      );
    this.selectList = arrays.join(', ');
  }

  /**
   * Rows of `table` typed by its generated handle (`tables.generated.ts`), all columns or `columns`;
   * the handle must name the table.
   */
  static of<Q extends object, K extends keyof Q & string = keyof Q & string>(
    db: Database,
    table: TableDef,
    handle: TableHandle<unknown, Q>,
    columns?: readonly K[],
  ): CatalogRows<Pick<Q, K>> {
    if (handle.code !== table.code) throw new Error(`explorer: handle '${handle.code}' is not table '${table.code}'`);
    return new CatalogRows<Pick<Q, K>>(db, table, columns);
  }

  /** A query over the table selecting the rendered columns; add conditions, order and limits, then `read` it. */
  query(): Knex.QueryBuilder {
    const knex = this.db.reader;
    return knex.withSchema(this.table.schema).from(this.table.storage).select(knex.raw(this.selectList));
  }

  /**
   * `column = any(values)`, for `where`: the values travel as one array parameter, so the statement's
   * text does not depend on how many there are and it can be prepared (`read(q, { prepare: true })`).
   */
  anyOf(name: string, values: string[] | number[]): Knex.Raw {
    const column = requireColumn(this.table, name);
    const among = equalsSql(column.type, columnSql(column), arrayParameter(column.type), true);
    return this.db.reader.raw(among.sql, Array<typeof values>(among.uses).fill(values));
  }

  /** `prepare`: see Database.selectRows (hot lookups of a fixed shape, such as one object by id). */
  async read(query: Knex.QueryBuilder, options: SelectOptions = {}): Promise<R[]> {
    return this.explorerRows(await this.db.selectRows(query, options));
  }

  /** A row read as text (`readText`) as `read` shows it: for record shapers that build on explorer objects. */
  explorerRow(text: TextRow): R {
    const row: ExplorerRow = {};
    for (const c of this.columns) row[c.name] = objectValue(c, text[c.name]);
    return row as R;
  }

  /** The rows as their text, unparsed (exact big numbers, for records built in code). */
  async readText(query: Knex.QueryBuilder, options: SelectOptions = {}): Promise<TextRow[]> {
    return this.textRows(await this.db.selectRows(query, options));
  }

  /**
   * A read of a fixed shape compiled once (Database.statement): `build` adds conditions and order to
   * `query()` from its parameters; the answer runs it with values.
   */
  statement<A extends unknown[]>(
    build: (query: Knex.QueryBuilder, ...params: A) => Knex.QueryBuilder,
  ): (...values: A) => Promise<R[]> {
    const compiled = this.db.statement((...params: A) => build(this.query(), ...params), build.length - 1);
    return async (...values) => this.explorerRows(await compiled(...values));
  }

  /**
   * A lookup by keys (hashes, addresses, ids) that concurrent requests make together. `build` adds to
   * `query()` the conditions on the keys (one array parameter, through `anyOf`) and the order;
   * `keysOf` names the keys a row answers. A lookup waits for the end of the event loop's round of
   * ready sockets (`setImmediate`), and all lookups asked in that round run as one statement over
   * all their keys; each gets the rows answering any of its own keys, once each, in the statement's
   * order. While `LOOKUP_STATEMENTS_IN_FLIGHT` statements of the lookup run, the lookups asked
   * meanwhile wait and go together in the next one: under load few, large statements (one round trip,
   * one plan and one answer for many requests) on at most that many pooled connections; a lone
   * request waits one turn of the loop. Nothing is kept between statements. The keys must be valid
   * for the column's type: one the database refuses fails its whole round. `/metrics` counts the keys
   * of each statement (`tzidx_api_batched_lookup_keys`). `column`: the column the keys are values of,
   * when its type stores them otherwise (ColumnType.converts: an op hash's raw bytes); the statement gets
   * them converted, and a key the type cannot store names no row.
   */
  batched(
    build: (query: Knex.QueryBuilder, keys: string[]) => Knex.QueryBuilder,
    keysOf: (row: R) => unknown[],
    column?: string,
  ): (keys: readonly (string | number)[]) => Promise<R[]> {
    const lookup = this.statement(build);
    const type = column === undefined ? undefined : requireColumn(this.table, column).type;
    const stored = (keys: string[]): string[] => (type ? keys.flatMap((k) => storable(type, k)) : keys);
    // How many statements are running, and the batches that fell due meanwhile (DataLoader keeps
    // adding keys to a batch until it runs).
    let running = 0;
    const due: (() => void)[] = [];
    // Per key, the rows answering it with their place in the statement's answer.
    const loader = new DataLoader<string, [number, R][]>(
      async (keys) => {
        running++;
        try {
          const found = new Map<string, [number, R][]>(keys.map((k) => [k, []]));
          this.db.metrics.batchedKeys.observe({ table: this.table.code }, found.size);
          (await lookup(stored([...found.keys()]))).forEach((row, i) => {
            for (const k of new Set(keysOf(row).map(String))) found.get(k)?.push([i, row]);
          });
          return keys.map((k) => found.get(k)!);
        } finally {
          running--;
          due.shift()?.();
        }
      },
      {
        cache: false,
        batchScheduleFn: (run) => setImmediate(() => (running >= LOOKUP_STATEMENTS_IN_FLIGHT ? due.push(run) : run())),
      },
    );
    return async (keys) => {
      const answered = new Map<number, R>();
      for (const rows of await loader.loadMany(keys.map(String))) {
        if (rows instanceof Error) throw rows;
        for (const [i, row] of rows) answered.set(i, row);
      }
      return [...answered].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
    };
  }

  private textRows(rows: (string | null)[][]): TextRow[] {
    const columns = this.columns;
    return rows.map((arrays) => {
      const values = rowValues(arrays);
      const text: TextRow = {};
      for (let i = 0; i < columns.length; i++) text[columns[i].name] = values[i];
      return text;
    });
  }

  /**
   * Explorer rows straight from the selected arrays (no text row in between: the route's hot path).
   * The one place a row becomes `R`: each value is its column type's `objectValue`, whose TypeScript
   * type is the type's `readTsType` that the generated `…Read` types are made of.
   */
  private explorerRows(rows: (string | null)[][]): R[] {
    const columns = this.columns;
    return rows.map((arrays) => {
      const values = rowValues(arrays);
      const row: ExplorerRow = {};
      for (let i = 0; i < columns.length; i++) row[columns[i].name] = objectValue(columns[i], values[i]);
      return row as R;
    });
  }

  /** One object by its key: a fixed-shape lookup, so prepared unless told otherwise. */
  async first(query: Knex.QueryBuilder, options: SelectOptions = { prepare: true }): Promise<R | undefined> {
    return (await this.read(query.limit(1), options))[0];
  }
}

/**
 * Statements of one batched lookup that may run at once. Why two: with one, the process waited on
 * every answer while Postgres ran it, and Postgres ran the lookup on one core; with two, Postgres
 * answers one while the process handles the other's rows (`/explorer/op` at 32 clients on two
 * cores: 7,400 → 8,100 req/s, alternating runs; four gave no more).
 */
const LOOKUP_STATEMENTS_IN_FLIGHT = 2;

/** A key as its column stores it, or none when it cannot be stored (a malformed op hash). */
function storable(type: ColumnType, key: string): string[] {
  try {
    // The statement's parameter is bound as it is (Buffer bytes for a bytea array).
    return [type.toDb(key) as string];
  } catch {
    return [];
  }
}

/** A selected row's rendered texts, in column order, from its JSON arrays. */
function rowValues(arrays: (string | null)[]): (string | null)[] {
  return (arrays.length === 1 ? JSON.parse(arrays[0]!) : arrays.flatMap((a) => JSON.parse(a!))) as (string | null)[];
}

function objectValue(column: ColumnDef, raw: string | null): unknown {
  return raw === null ? null : column.type.objectValue(raw);
}

export function requireColumn(table: TableDef, name: string): ColumnDef {
  const column = table.column(name);
  if (!column) throw new Error(`explorer: table '${table.code}' has no column '${name}'`);
  return column;
}
