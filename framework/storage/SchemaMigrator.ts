import { createHash } from 'node:crypto';
import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { IndexDef, isStored, physicalTables, storedColumns, TableDef } from '../catalog/CatalogModel';
import { fitsSql, viewSql } from './PartedTables';
import {
  coverDefault,
  coverHeights,
  createDefaultPartition,
  isPartitioned,
  partitionClause,
  tableIndexes,
} from './HeightPartitions';
import { ColumnType } from '../catalog/types/ColumnType';

/** Framework bookkeeping lives in its own schema, apart from every plugin's. */
export const META_SCHEMA = 'tzidx';
const MIGRATION_LOCK = 'tzidx-migrate';

/** A row of `tzidx.schema_version`: the definition a table was last migrated to. */
interface VersionRow {
  plugin: string;
  table_code: string;
  definition_hash: string;
  version: number;
}

/** What the database holds when a migration starts, and the schemas it has made sure of since. */
interface DatabaseState {
  recorded: Map<string, VersionRow>;
  columns: Map<string, Map<string, string>>;
  schemas: Set<string>;
}

export interface MigrationReport {
  created: string[];
  altered: string[];
  unchanged: string[];
}

/**
 * Creates and evolves one Postgres schema per plugin from the catalog, idempotently: missing schemas,
 * tables, columns and indexes are added; each table's definition hash is recorded in
 * `tzidx.schema_version`. Incompatible changes (a column whose type changed) stop with a clear message
 * instead of silently rewriting data.
 */
export class SchemaMigrator {
  constructor(private readonly knex: Knex) {}

  async migrate(catalog: Catalog): Promise<MigrationReport> {
    const report: MigrationReport = { created: [], altered: [], unchanged: [] };
    await this.knex.transaction(async (trx) => {
      // Replicas starting together must not race on DDL.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [MIGRATION_LOCK]);
      await trx.raw('create schema if not exists ??', [META_SCHEMA]);
      await trx.raw(
        `create table if not exists ??.schema_version (
           plugin text not null, table_code text not null, definition_hash text not null,
           version integer not null, migrated_at timestamptz not null default now(),
           primary key (plugin, table_code))`,
        [META_SCHEMA],
      );
      await createIndexerTables(trx);
      // What is there already, read once for every table (why: a query per table and per index was
      // a third of a fresh migration, which every test instance and new database pays).
      const tables = [...catalog.tables.values()];
      const state: DatabaseState = {
        recorded: new Map(
          (await trx(`${META_SCHEMA}.schema_version`).select()).map((r: VersionRow) => [
            `${r.plugin}/${r.table_code}`,
            r,
          ]),
        ),
        columns: await existingColumns(trx, tables.flatMap(physicalTables)),
        schemas: new Set(),
      };
      for (const table of tables) {
        const outcome = table.parts
          ? await this.migrateParts(trx, table, state)
          : await this.migrateTable(trx, table, state);
        report[outcome].push(table.code);
      }
      // Rows a migration moved (or anyone wrote) into a default partition get their height ranges.
      for (const table of tables.flatMap(physicalTables).filter(isPartitioned)) await coverDefault(trx, table);
    });
    return report;
  }

  /**
   * A table stored in parts (TablePartsDecl): its tables, then its view. A database of the schema
   * before has the table itself where the view goes: it becomes the main table (indexes renamed to
   * match), and the rows that fit a narrow table move there. A narrow table of another shape is
   * rewritten: its rows go back to the main table as its view read them, and those that fit the new
   * shape move into the table made again.
   */
  private async migrateParts(
    trx: Knex.Transaction,
    table: TableDef,
    state: DatabaseState,
  ): Promise<keyof MigrationReport> {
    const parts = table.parts!;
    const relation = `${quote(table.schema)}.${quote(table.storage)}`;
    const { rows: kind } = await trx.raw('select relkind from pg_class where oid = to_regclass(?)', [relation]);
    if (kind[0]?.relkind === 'r') await becomeMain(trx, table, parts.main, state);
    // The view reads the tables' columns: it goes before any of them changes, and is made again below.
    const changed = [parts.main, ...parts.narrow.map((p) => p.table)].some(
      (t) => state.recorded.get(`${t.plugin}/${t.code}`)?.definition_hash !== definitionHash(t),
    );
    if (kind[0]?.relkind === 'v' && changed) {
      const rewritten: TableDef[] = [];
      for (const p of parts.narrow) if (await unpart(trx, table, p.table, state)) rewritten.push(p.table);
      await trx.raw(`drop view ${relation}`);
      for (const t of rewritten) await trx.raw(`drop table ${quote(t.schema)}.${quote(t.storage)}`);
    }
    const outcomes = [await this.migrateTable(trx, parts.main, state)];
    for (const p of parts.narrow) {
      const outcome = await this.migrateTable(trx, p.table, state);
      outcomes.push(outcome);
      if (outcome !== 'created') continue;
      const columns = storedColumns(p.table);
      const names = columns.map((c) => quote(c.name)).join(', ');
      // A narrower column takes the main table's value converted (an enum's label as its code).
      const values = columns.map((c) => {
        const main = parts.main.column(c.name)!.type.sqlType;
        return (p.narrowed.includes(c) ? c.type.convertFrom(quote(c.name), main) : undefined) ?? quote(c.name);
      });
      await trx.raw(
        `with moved as (delete from ${quote(table.schema)}.${quote(parts.main.storage)} where ${fitsSql(trx, parts, p)}
           returning ${names})
         insert into ${quote(table.schema)}.${quote(p.table.storage)} (${names}) select ${values.join(', ')} from moved`,
      );
    }
    if (kind.length > 0 && kind[0].relkind === 'v' && outcomes.every((o) => o === 'unchanged')) return 'unchanged';
    await trx.raw(`drop view if exists ${relation}`);
    for (const statement of viewSql(trx, table)) await trx.raw(statement);
    return outcomes[0] === 'unchanged' ? 'altered' : outcomes[0];
  }

  private async migrateTable(
    trx: Knex.Transaction,
    table: TableDef,
    state: DatabaseState,
  ): Promise<keyof MigrationReport> {
    const hash = definitionHash(table);
    const recorded = state.recorded.get(`${table.plugin}/${table.code}`);
    const existing = state.columns.get(`${table.schema}.${table.storage}`) ?? new Map<string, string>();
    if (recorded?.definition_hash === hash && existing.size > 0) return 'unchanged';

    if (!state.schemas.has(table.schema)) await trx.raw('create schema if not exists ??', [table.schema]);
    state.schemas.add(table.schema);
    let outcome: keyof MigrationReport;
    if (existing.size === 0) {
      await createTable(trx, table);
      outcome = 'created';
    } else {
      for (const c of table.columns) {
        const have = existing.get(c.name);
        if (!isStored(c)) {
          // Now read through another table (ColumnDecl.filter_via stored: false): the copy goes.
          if (have !== undefined)
            await trx.raw(`alter table ??.?? drop column ${quote(c.name)}`, [table.schema, table.storage]);
          continue;
        }
        if (have === undefined) {
          // New columns are added nullable: existing rows have no value for them.
          await trx.raw(`alter table ??.?? add column ${quote(c.name)} ${columnDdl(c.type)}`, [
            table.schema,
            table.storage,
          ]);
        } else if (c.sparse && normalizeType(have) === normalizeType(c.type.sqlType)) {
          // Sparse now (ColumnDecl.sparse): its zeros may be NULL from here on; the stored zeros read the same.
          await trx.raw(`alter table ??.?? alter column ${quote(c.name)} drop not null`, [table.schema, table.storage]);
        } else if (INTEGERS.has(normalizeType(have)) && INTEGERS.has(normalizeType(c.type.sqlType))) {
          // Another integer width (op_attest's op_n in 4 bytes): rewritten; a value out of range fails the migration.
          if (normalizeType(have) !== normalizeType(c.type.sqlType))
            await trx.raw(`alter table ??.?? alter column ${quote(c.name)} type ${c.type.sqlType}`, [
              table.schema,
              table.storage,
            ]);
        } else if (normalizeType(have) !== normalizeType(c.type.sqlType)) {
          const using = c.type.convertFrom(quote(c.name), normalizeType(have));
          if (using !== undefined) {
            await convertColumn(trx, table, c.name, `${columnDdl(c.type)} using ${using}`);
            continue;
          }
          throw new Error(
            `table ${table.schema}.${table.storage}: column '${c.name}' is ${have} in the database but ${c.type.sqlType} (${c.type.name}) in the catalog; ` +
              'changing a column type needs a rebuild of that table',
          );
        }
      }
      outcome = 'altered';
    }
    // Partitioned now (TablePartitionDecl): the rows move into a new partitioned table, indexed below.
    const moved = outcome === 'altered' && isPartitioned(table) && (await partitionRows(trx, table));
    // A table created just now has no index but its key: none to drop or to compare.
    if (outcome === 'altered' && !moved) await dropUndeclaredIndexes(trx, table);
    for (const ix of tableIndexes(table)) await migrateIndex(trx, table, ix, outcome === 'created' || moved);
    await trx(`${META_SCHEMA}.schema_version`)
      .insert({
        plugin: table.plugin,
        table_code: table.code,
        definition_hash: hash,
        version: (recorded?.version ?? 0) + 1,
        migrated_at: new Date(),
      })
      .onConflict(['plugin', 'table_code'])
      .merge();
    return outcome;
  }
}

/**
 * A table of the catalog: a partitioned one (TablePartitionDecl) with its default partition and no primary
 * key (its row-id index: HeightPartitions).
 */
async function createTable(trx: Knex.Transaction, table: TableDef): Promise<void> {
  const key = isPartitioned(table) ? 'not null' : 'primary key';
  const defs = storedColumns(table).map((c) =>
    c.name === 'row_id'
      ? `"row_id" bigint generated by default as identity ${key}`
      : `${quote(c.name)} ${columnDdl(c.type)}${c.nullable || c.sparse ? '' : ' not null'}`,
  );
  await trx.raw(`create table ??.?? (${defs.join(', ')})${partitionClause(table)}`, [table.schema, table.storage]);
  if (isPartitioned(table)) await createDefaultPartition(trx, table);
}

/**
 * A table of an earlier schema that the catalog now partitions: its rows move, in the migration's
 * transaction, into a new partitioned table of the same name with the ranges they need; the old table,
 * its indexes and its row-id sequence go (the new one continues after its highest row id). Whether it did.
 */
async function partitionRows(trx: Knex.Transaction, table: TableDef): Promise<boolean> {
  const name = `${quote(table.schema)}.${quote(table.storage)}`;
  const { rows } = await trx.raw('select relkind from pg_class where oid = to_regclass(?)', [name]);
  if (rows[0]?.relkind !== 'r') return false;
  const old = `${table.storage}_unpartitioned`;
  await trx.raw('alter table ??.?? rename to ??', [table.schema, table.storage, old]);
  const { rows: indexes } = await trx.raw(
    `select c.relname as name, con.conname as constraint from pg_index i join pg_class c on c.oid = i.indexrelid
       left join pg_constraint con on con.conindid = i.indexrelid where i.indrelid = to_regclass(?)`,
    [`${quote(table.schema)}.${quote(old)}`],
  );
  // Their names are the new table's: they go first (the copy is faster without them, too).
  for (const ix of indexes as Array<{ name: string; constraint: string | null }>)
    if (ix.constraint) await trx.raw(`alter table ??.?? drop constraint ${quote(ix.constraint)}`, [table.schema, old]);
    else await trx.raw(`drop index ??.${quote(ix.name)}`, [table.schema]);
  await trx.raw('alter table ??.?? alter column row_id drop identity if exists', [table.schema, old]);
  await createTable(trx, table);
  const names = storedColumns(table)
    .map((c) => quote(c.name))
    .join(', ');
  const height = quote(table.heightColumn!);
  const { rows: bounds } = await trx.raw(`select min(${height}) as lowest, max(${height}) as highest from ??.??`, [
    table.schema,
    old,
  ]);
  if (bounds[0].highest !== null) await coverHeights(trx, table, Number(bounds[0].lowest), Number(bounds[0].highest));
  await trx.raw(`insert into ${name} (${names}) select ${names} from ??.??`, [table.schema, old]);
  await trx.raw('drop table ??.??', [table.schema, old]);
  await trx.raw(`select setval(pg_get_serial_sequence(?, 'row_id'), max("row_id")) from ${name} having count(*) > 0`, [
    name,
  ]);
  return true;
}

/**
 * A narrow table of another shape than the catalog's (an earlier schema: other columns or types): its rows
 * go back to the main table as the view of that schema reads them (every column), and the table is to go
 * (true; after the view); it is made again, and the rows that fit its new shape move there (a rewrite, so no
 * value is lost).
 */
async function unpart(
  trx: Knex.Transaction,
  table: TableDef,
  narrow: TableDef,
  state: DatabaseState,
): Promise<boolean> {
  const key = `${narrow.schema}.${narrow.storage}`;
  const recorded = state.recorded.get(`${narrow.plugin}/${narrow.code}`)?.definition_hash;
  if (!state.columns.has(key) || recorded === definitionHash(narrow)) return false;
  const names = [...state.columns.get(`${table.schema}.${table.storage}`)!.keys()].map(quote).join(', ');
  const main = `${quote(table.schema)}.${quote(table.parts!.main.storage)}`;
  const view = `${quote(table.schema)}.${quote(table.storage)}`;
  const rows = `select "row_id" from ${quote(narrow.schema)}.${quote(narrow.storage)}`;
  // Every narrow row must come back through the view (a view that misses one would lose it): else stop here.
  const { rows: counts } = await trx.raw(
    `select (select count(*) from (${rows}) r)::text as stored,
            (select count(*) from ${view} where "row_id" in (${rows}))::text as read`,
  );
  if (counts[0].stored !== counts[0].read)
    throw new Error(`${view}: its view reads ${counts[0].read} of the ${counts[0].stored} rows of ${key}`);
  await trx.raw(`insert into ${main} (${names}) select ${names} from ${view} where "row_id" in (${rows})`);
  state.columns.delete(key);
  return true;
}

const INTEGERS = new Set(['smallint', 'integer', 'bigint']);

/**
 * A column whose storage changed in a way its type can convert (ColumnType.convertFrom: an enum's text
 * labels become their positions, an op hash's base58 its bytes) is rewritten in place. The partial
 * indexes that name it go first: their predicates hold literals of the old type; so do all that name a
 * column now indexed on a key expression (ColumnType.indexKey): they are built on it. `migrateIndex`
 * builds them again. Postgres rebuilds the others.
 */
async function convertColumn(trx: Knex.Transaction, table: TableDef, column: string, to: string): Promise<void> {
  const keyed = table.column(column)?.type.indexKey !== undefined;
  const { rows } = await trx.raw(
    `select distinct c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
       join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = i.indexrelid and d.refobjid = i.indrelid
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = d.refobjsubid
      where i.indrelid = to_regclass(?) and (i.indpred is not null or ?) and not i.indisprimary and a.attname = ?`,
    [`${quote(table.schema)}.${quote(table.storage)}`, keyed, column],
  );
  for (const { name } of rows as Array<{ name: string }>) await trx.raw(`drop index ??.${quote(name)}`, [table.schema]);
  await trx.raw(`alter table ??.?? alter column ${quote(column)} type ${to}`, [table.schema, table.storage]);
}

/** The table of a parted table's name (an earlier schema) renamed to its main table, whose indexes keep their names. */
async function becomeMain(trx: Knex.Transaction, table: TableDef, main: TableDef, state: DatabaseState): Promise<void> {
  await trx.raw('alter table ??.?? rename to ??', [table.schema, table.storage, main.storage]);
  const columns = state.columns.get(`${table.schema}.${table.storage}`);
  if (columns) state.columns.set(`${main.schema}.${main.storage}`, columns);
  state.columns.delete(`${table.schema}.${table.storage}`);
}

/**
 * An index an earlier version declared and this catalog no longer does (op `sender` became
 * `sender_id`) is dropped: it would cost disk and write time and serve no filter. Only names of the
 * catalog's own pattern (`{table}_{columns}_idx`, or a hash suffix when that is too long) are touched, so an operator's
 * own indexes named otherwise stay.
 */
async function dropUndeclaredIndexes(trx: Knex.Transaction, table: TableDef): Promise<void> {
  const declared = new Set(tableIndexes(table).map((ix) => indexName(table, ix)));
  const { rows } = await trx.raw(
    `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = to_regclass(?) and not i.indisprimary`,
    [`${quote(table.schema)}.${quote(table.storage)}`],
  );
  for (const { name } of rows as Array<{ name: string }>) {
    if (
      !declared.has(name) &&
      name.startsWith(`${table.indexPrefix ?? table.storage}_`) &&
      /_(idx|[0-9a-f]{8})$/.test(name)
    )
      await trx.raw(`drop index ??.${quote(name)}`, [table.schema]);
  }
}

/**
 * A non-unique index whose leading column is nullable leaves the nulls out (`where … is not null`): every filter
 * that can use it (=, in, ranges) implies not null, and most rows of such columns are null (an op's
 * receiver, creator or baker: attestations have none), which a full index would store anyway. One
 * that declares `except` leaves out the rows holding those values (and nulls). An index of the same
 * name built otherwise (by an earlier version: method or partiality) is rebuilt; the left-out values
 * are part of the name, so changing them builds a new index and drops the old one.
 */
async function migrateIndex(trx: Knex.Transaction, table: TableDef, ix: IndexDef, newTable: boolean): Promise<void> {
  const name = indexName(table, ix);
  const predicate = indexPredicate(trx, table, ix);
  const keyed = ix.columns.some((c) => table.column(c)?.type.indexKey !== undefined);
  const existing: Array<{ partial: boolean; method: string; keyed: boolean }> = newTable
    ? []
    : (
        await trx.raw(
          `select i.indpred is not null as partial, am.amname as method, i.indexprs is not null as keyed
             from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
            where i.indexrelid = to_regclass(?)`,
          [`${quote(table.schema)}.${quote(name)}`],
        )
      ).rows;
  const [was] = existing;
  if (was && (was.partial !== (predicate !== undefined) || was.method !== ix.using || was.keyed !== keyed))
    await trx.raw(`drop index ??.${quote(name)}`, [table.schema]);
  // A column indexed on a key expression (ColumnType.indexKey: an op hash's first 8 bytes) is indexed by it.
  const cols = ix.columns
    .map((c) => {
      const key = table.column(c)?.type.indexKey?.(quote(c));
      return key === undefined ? quote(c) : `(${key})`;
    })
    .join(', ');
  const where = predicate ? ` where ${predicate}` : '';
  await trx.raw(
    `create ${ix.unique ? 'unique ' : ''}index if not exists ${quote(name)} on ??.?? using ${ix.using} (${cols})${where}`,
    [table.schema, table.storage],
  );
}

/**
 * Whether an index leaves rows out: those of its `except` values, or the nulls of a nullable leading
 * column. Unique indexes stay whole: `ON CONFLICT (column)` infers only an index without a predicate.
 */
function isPartial(table: TableDef, ix: IndexDef): boolean {
  return ix.except.length > 0 || (!ix.unique && table.column(ix.columns[0])?.nullable === true);
}

/** The rows a partial index keeps, as SQL (undefined: it holds every row). */
function indexPredicate(knex: Knex, table: TableDef, ix: IndexDef): string | undefined {
  if (!isPartial(table, ix)) return undefined;
  const lead = quote(ix.columns[0]);
  // Literals, not parameters: DDL takes none. The values were parsed by the column's type.
  if (ix.except.length > 0)
    return knex.raw(`${lead} not in (${ix.except.map(() => '?').join(', ')})`, ix.except as Knex.Value[]).toQuery();
  return `${lead} is not null`;
}

/**
 * The indexer's own state: the sync cursor (one row), the hashes of recent blocks (to find a fork
 * point) and the journal of mutable-row pre-images near the head (to undo them on a reorg).
 */
async function createIndexerTables(trx: Knex.Transaction): Promise<void> {
  await trx.raw(
    `create table if not exists ??.sync_state (
       id integer primary key check (id = 1), height bigint not null, hash text not null,
       chain_id text, updated_at timestamptz not null default now())`,
    [META_SCHEMA],
  );
  // The head as the indexer tells API clients (SyncCursor.head), for `tzidx serve` replicas; added to older databases.
  await trx.raw(
    `alter table ??.sync_state add column if not exists protocol text,
       add column if not exists head_time bigint, add column if not exists block_interval double precision,
       add column if not exists final_depth integer`,
    [META_SCHEMA],
  );
  await trx.raw(
    `create table if not exists ??.block_hashes (height bigint primary key, hash text not null, predecessor text not null)`,
    [META_SCHEMA],
  );
  await trx.raw(
    `create table if not exists ??.journal (
       id bigint generated always as identity primary key, height bigint not null,
       table_code text not null, row_id bigint not null, pre_image jsonb)`,
    [META_SCHEMA],
  );
  await trx.raw('create index if not exists journal_height_idx on ??.journal (height)', [META_SCHEMA]);
  // The final height ranges of partitioned tables already packed (RangePacking).
  await trx.raw(
    `create table if not exists ??.packed_ranges (
       relation text primary key, packed_at timestamptz not null default now())`,
    [META_SCHEMA],
  );
  await createBase58Payload(trx);
  // Contracts plugins follow (IndexContext.watch, claims): rolled back by height like appended rows.
  await trx.raw(
    `create table if not exists ??.watches (
       address text not null, role text not null, height bigint not null, types jsonb,
       primary key (address, role))`,
    [META_SCHEMA],
  );
}

/**
 * `tzidx.base58_payload(text, prefix length, payload length)`: the payload bytes of a base58check text,
 * for a migration that turns hashes stored as text into their bytes (BinaryHashType.convertFrom). The
 * checksum is not checked: the texts were checked when they were written.
 */
async function createBase58Payload(trx: Knex.Transaction): Promise<void> {
  await trx.raw(
    `create or replace function ${META_SCHEMA}.base58_payload(t text, prefix integer, len integer) returns bytea
       language plpgsql immutable strict as $$
     declare
       n numeric := 0;
       digit integer;
       total integer := prefix + len + 4;
       b bytea := decode(repeat('00', prefix + len + 4), 'hex');
     begin
       for i in 1 .. length(t) loop
         digit := position(substr(t, i, 1) in '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz') - 1;
         if digit < 0 then raise exception 'not base58: %', t; end if;
         n := n * 58 + digit;
       end loop;
       for i in reverse total - 1 .. 0 loop
         b := set_byte(b, i, (n % 256)::integer);
         n := div(n, 256);
       end loop;
       if n <> 0 then raise exception 'longer than % bytes: %', total, t; end if;
       return substring(b from prefix + 1 for len);
     end $$`,
  );
}

/** The columns and their types of the tables that exist, by `schema.table`. */
async function existingColumns(
  trx: Knex.Transaction,
  tables: readonly TableDef[],
): Promise<Map<string, Map<string, string>>> {
  const rows: Array<{ name: string; column_name: string; data_type: string }> = (
    await trx.raw(
      `select n.nspname || '.' || c.relname as name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as data_type
         from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any(?) and a.attnum > 0 and not a.attisdropped`,
      [[...new Set(tables.map((t) => t.schema))]],
    )
  ).rows;
  const out = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (!out.has(r.name)) out.set(r.name, new Map());
    out.get(r.name)!.set(r.column_name, r.data_type);
  }
  return out;
}

function columnDdl(type: ColumnType): string {
  return type.collation ? `${type.sqlType} collate ${quote(type.collation)}` : type.sqlType;
}

/** format_type spells some types differently from how DDL was written. */
function normalizeType(t: string): string {
  return t
    .toLowerCase()
    .replace(/^timestamp(\(\d+\))? with time zone$/, 'timestamptz')
    .replace(/^numeric\((\d+),(\d+)\)$/, 'numeric($1,$2)')
    .replace(/\s+/g, ' ')
    .replace(/, /g, ',');
}

function definitionHash(table: TableDef): string {
  const shape = {
    storage: table.storage,
    columns: storedColumns(table).map((c) => [
      c.name,
      c.type.sqlType,
      c.type.collation,
      c.nullable,
      ...(c.sparse ? ['sparse'] : []),
    ]),
    ...(isPartitioned(table) ? { partition: table.heightColumn } : {}),
    indexes: table.indexes.map((i) => [
      i.columns,
      i.unique,
      ...(i.using === 'btree' ? [] : [i.using]),
      ...(isPartial(table, i) ? ['partial'] : []),
      ...(i.columns.some((c) => table.column(c)?.type.indexKey) ? ['keyed'] : []),
      ...i.except,
    ]),
  };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16);
}

/**
 * `{table}_{columns}_idx`, with `_no_{values}` before the suffix when the index leaves values out.
 * Postgres truncates identifiers at 63 bytes; long index names get a hash suffix to stay unique.
 */
export function indexName(table: TableDef, ix: IndexDef): string {
  const name = `${table.indexPrefix ?? table.storage}_${ix.columns.join('_')}${ix.except.length > 0 ? `_no_${ix.exceptArgs.join('_')}` : ''}_idx`;
  if (name.length <= 63) return name;
  const h = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, 54)}_${h}`;
}

export function quote(ident: string): string {
  return `"${ident.replace(/"/g, '""')}"`;
}
