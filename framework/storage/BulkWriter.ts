import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Knex } from 'knex';
import { from as copyFrom } from 'pg-copy-streams';
import { type ColumnDef, storedColumns, type TableDef } from '../catalog/CatalogModel';
import { quote } from './SchemaMigrator';
import { partOf } from './PartedTables';
import { DatabaseKind } from './Database';
import { binaryCopyChunks, BinaryCopyWriter } from './BinaryCopy';

export type Row = Record<string, unknown>;

/**
 * Writes many rows inside the caller's transaction by COPY, the fastest way in: on Postgres streamed
 * `COPY … FROM STDIN` (pg-copy-streams), on PGlite `COPY … FROM '/dev/blob'` with the same input.
 * Catalog rows go in the binary format, each value written by its column's type (bigint → int8,
 * Date → timestamptz, hex → bytea); the journal's values, which have no column types, as text.
 */
export class BulkWriter {
  constructor(private readonly kind: DatabaseKind) {}

  async append(trx: Knex.Transaction, table: TableDef, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    if (table.parts) {
      // Stored in parts: each row where it fits (TablePartsDecl).
      const split = new Map<TableDef, Row[]>(
        [table.parts.main, ...table.parts.narrow.map((p) => p.table)].map((t) => [t, []]),
      );
      for (const row of rows) split.get(partOf(table.parts, row)?.table ?? table.parts.main)!.push(row);
      for (const [part, partRows] of split) await this.append(trx, part, partRows);
      return;
    }
    // Columns any row carries (missing ones are NULL); row_id stays with the identity unless set.
    const columns = carriedColumns(table, rows);
    await this.copyFrom(
      trx,
      `${quote(table.schema)}.${quote(table.storage)}`,
      columns.map((c) => c.name),
      binaryRows(columns, rows),
    );
  }

  /**
   * Inserts rows or, where a row with the same values in `key` (a unique index) exists, overwrites
   * the columns the row carries: current-state rows that are not chain data (no journal, no height).
   */
  async upsert(trx: Knex.Transaction, table: TableDef, rows: readonly Row[], key: readonly string[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = carriedColumns(table, rows).filter((c) => c.name !== 'row_id');
    const values = rows.map((r) => {
      const out: Row = {};
      for (const c of columns) out[c.name] = c.type.toDb(r[c.name]);
      return out;
    });
    await trx
      .withSchema(table.schema)
      .table(table.storage)
      .insert(values)
      .onConflict([...key])
      .merge(columns.map((c) => c.name).filter((n) => !key.includes(n)));
  }

  /**
   * `merge` for several tables at once (the indexer's mutable rows, once per batch). A table with few
   * rows is not worth the three statements of a staging table: such tables' rows go together in one
   * statement (an `INSERT … VALUES … ON CONFLICT` per table, each in a WITH clause), so a batch that
   * changed a handful of pools, positions or votes pays one round trip for all of them. The others,
   * and a table given twice (its rows would meet in one statement), are merged one by one.
   */
  async mergeAll(
    trx: Knex.Transaction,
    writes: ReadonlyArray<{ table: TableDef; rows: readonly Row[] }>,
  ): Promise<void> {
    const small: Array<{ table: TableDef; rows: readonly Row[]; columns: ColumnDef[] }> = [];
    const given = new Map<TableDef, number>();
    for (const { table, rows } of writes) if (rows.length > 0) given.set(table, (given.get(table) ?? 0) + 1);
    let values = 0;
    for (const { table, rows } of writes) {
      if (rows.length === 0) continue;
      const columns = carriedColumns(table, rows);
      const size = rows.length * columns.length;
      if (given.get(table) === 1 && size <= SMALL_MERGE_VALUES && values + size <= MERGE_STATEMENT_VALUES) {
        small.push({ table, rows, columns });
        values += size;
      } else await this.mergeStaged(trx, table, rows, columns);
    }
    if (small.length === 0) return;
    const bindings: unknown[] = [];
    const inserts = small.map(({ table, rows, columns }, i) => {
      for (const row of rows) for (const c of columns) bindings.push(paramValue(c, row[c.name]));
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      return `m${i} as (insert into ${quote(table.schema)}.${quote(table.storage)} (${columns.map((c) => quote(c.name)).join(', ')}) values ${rows.map(() => tuple).join(', ')} ${onConflict(columns)})`;
    });
    await trx.raw(`with ${inserts.join(', ')} select 1`, bindings as Knex.Value[]);
  }

  /**
   * Writes rows keyed by row_id: new ones are inserted, existing ones get the columns the rows carry
   * (the indexer's mutable rows, once per batch): COPY into a temporary staging table, then one
   * INSERT … ON CONFLICT from it, instead of statements with tens of thousands of parameters that the
   * driver numbers and the server parses.
   */
  async merge(trx: Knex.Transaction, table: TableDef, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    await this.mergeStaged(trx, table, rows, carriedColumns(table, rows));
  }

  /** `merge` through the staging table, of the columns the rows carry (`carriedColumns`). */
  private async mergeStaged(
    trx: Knex.Transaction,
    table: TableDef,
    rows: readonly Row[],
    columns: readonly ColumnDef[],
  ): Promise<void> {
    const target = `${quote(table.schema)}.${quote(table.storage)}`;
    // Named by a digest: schema and table names together may pass the 63 bytes Postgres keeps of a name.
    const staging = `pg_temp.${quote(`tzidx_merge_${createHash('sha1').update(target).digest('hex').slice(0, 20)}`)}`;
    // Column types only (CREATE … AS): no NOT NULL, so columns the rows do not carry may stay empty
    // here. Asked every time: a table made in a transaction that rolled back is gone.
    await trx.raw(`create temporary table if not exists ${staging} as select * from ${target} with no data`);
    await this.copyFrom(
      trx,
      staging,
      columns.map((c) => c.name),
      binaryRows(columns, rows),
    );
    const names = columns.map((c) => quote(c.name)).join(', ');
    // The staged rows move in one statement: deleted from the staging table (a temporary table's
    // DELETE writes no WAL; TRUNCATE would swap its files, slower for a few rows) and inserted from
    // what the delete returns, one round trip instead of two.
    await trx.raw(
      `with moved as (delete from ${staging} returning ${names}) insert into ${target} (${names}) select ${names} from moved ${onConflict(columns)}`,
    );
  }

  /**
   * Appends rows of values the database takes as they are (text, numbers, JSON text) to a table
   * outside the catalog (the indexer's journal).
   */
  async appendValues(
    trx: Knex.Transaction,
    schema: string,
    storage: string,
    columns: readonly string[],
    rows: readonly unknown[][],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.copyFrom(trx, `${quote(schema)}.${quote(storage)}`, columns, valueLines(rows));
  }

  /** `relation`: a quoted, qualified table name; `input`: text lines or binary chunks (`BinaryCopy`). */
  private async copyFrom(
    trx: Knex.Transaction,
    relation: string,
    columns: readonly string[],
    input: Iterable<string> | Iterable<Buffer>,
  ): Promise<void> {
    const target = `${relation} (${columns.map((c) => quote(c)).join(', ')})`;
    const options = input instanceof BinaryRows ? ' with (format binary)' : '';
    const connection = await connectionOf(trx);
    // PGlite reads COPY input from a Blob under the name /dev/blob.
    if (this.kind === 'pglite')
      await connection.query(`copy ${target} from '/dev/blob'${options}`, [], { blob: new Blob([...input]) });
    else await pipeline(Readable.from(input), connection.query(copyFrom(`copy ${target} from stdin${options}`)));
  }
}

/** The two ways a connection takes COPY input: PGlite's from a Blob, pg's through a copy stream. */
type Connection = {
  query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
  query<T extends NodeJS.WritableStream>(stream: T): T;
};

/** Inside a knex transaction the client hands back the transaction's own connection. */
function connectionOf(trx: Knex.Transaction): Promise<Connection> {
  return (trx as unknown as { client: { acquireConnection(): Promise<Connection> } }).client.acquireConnection();
}

/**
 * Values (rows × columns) up to which a table's merge goes into the shared statement, and that statement's whole budget
 * (the protocol allows 65,535 parameters).
 */
const SMALL_MERGE_VALUES = 2_000;
const MERGE_STATEMENT_VALUES = 20_000;

/** The stored columns any of the rows carries (those no row carries are left as they are). */
function carriedColumns(table: TableDef, rows: readonly Row[]): ColumnDef[] {
  return storedColumns(table).filter((c) => rows.some((r) => r[c.name] !== undefined));
}

/** A merged row that exists gets the columns the rows carry. */
function onConflict(columns: readonly ColumnDef[]): string {
  const set = columns.filter((c) => c.name !== 'row_id').map((c) => `${quote(c.name)} = excluded.${quote(c.name)}`);
  return `on conflict ("row_id") do ${set.length > 0 ? `update set ${set.join(', ')}` : 'nothing'}`;
}

/**
 * A value as a bound parameter, as the COPY stores it: absent is NULL (merged tables are mutable: no sparse columns).
 */
function paramValue(c: ColumnDef, value: unknown): unknown {
  return c.type.toDb(value) ?? null;
}

/** Catalog rows as binary COPY input (a class of its own, so `copyFrom` knows the format). */
class BinaryRows implements Iterable<Buffer> {
  constructor(
    private readonly rows: readonly Row[],
    private readonly write: RowWriter,
  ) {}
  [Symbol.iterator](): Iterator<Buffer> {
    return binaryCopyChunks(this.rows, this.write);
  }
}

function binaryRows(columns: readonly ColumnDef[], rows: readonly Row[]): BinaryRows {
  return new BinaryRows(rows, rowWriter(columns));
}

type RowWriter = (row: Row, out: BinaryCopyWriter) => void;
const rowWriters = new WeakMap<ColumnDef, Map<string, RowWriter>>();

/**
 * Writes a row's fields for these columns, by a function compiled once per column list. Why: a batch
 * writes hundreds of thousands of rows of 20–50 fields; a loop over the columns would call every
 * type's `writeBinary` from one call site (megamorphic), while the compiled function calls each
 * column's type from a site of its own. Absent and null values are NULL, and so is a sparse
 * column's zero (ColumnDecl.sparse).
 */
function rowWriter(columns: readonly ColumnDef[]): RowWriter {
  const key = columns.map((c) => c.name).join(',');
  let byList = rowWriters.get(columns[0]);
  if (!byList) rowWriters.set(columns[0], (byList = new Map()));
  let fn = byList.get(key);
  if (!fn) {
    const field = (c: ColumnDef, i: number): string => {
      const absent = `(v = row[${JSON.stringify(c.name)}]) === undefined || v === null${c.sparse ? " || v === 0 || v === 0n || v === '0'" : ''}`;
      return `if (${absent}) out.null(); else t${i}.writeBinary(v, out);`;
    };
    const body = `return function copyRow(row, out) { let v; out.tuple(${columns.length}); ${columns.map(field).join(' ')} };`;
    fn = new Function(...columns.map((_, i) => `t${i}`), body)(...columns.map((c) => c.type)) as RowWriter;
    byList.set(key, fn);
  }
  return fn;
}

function valueLines(rows: readonly unknown[][]): Generator<string> {
  return chunks(rows, (row) => row.map(copyField).join('\t'));
}

/** COPY input in chunks of about 64 KiB, one line a row. */
function* chunks<T>(rows: readonly T[], line: (row: T) => string): Generator<string> {
  let batch = '';
  for (const row of rows) {
    batch += line(row) + '\n';
    if (batch.length > 65536) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

const COPY_SPECIAL = /[\\\n\r\t]/;

/** COPY text format: `\N` for NULL, backslash escapes for the separators. */
function copyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = String(v);
  // Most values (numbers as text, addresses, hashes) have nothing to escape: no four regex passes.
  return COPY_SPECIAL.test(s)
    ? s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
    : s;
}
