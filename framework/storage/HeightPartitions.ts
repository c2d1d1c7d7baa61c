import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { type IndexDef, physicalTables, storedColumns, type TableDef } from '../catalog/CatalogModel';
import type { Logger } from '../util/Logger';
import { quote } from './SchemaMigrator';

/**
 * Append tables stored as range partitions of their height (TablePartitionDecl), so an operator can pack,
 * move or drop old ranges (docs/operations.md). Each has a default partition, which takes any row no range
 * holds: no write ever fails or is lost for want of a partition. The indexer makes the ranges ahead of the
 * heights it writes (HeightPartitions.ahead); a range made later takes the default partition's rows of it.
 */
export function isPartitioned(table: TableDef): table is TableDef & { partitionSpan: number } {
  return table.partitionSpan !== undefined;
}

/**
 * A partitioned table's row-id index, in place of the primary key: a unique index of a partitioned table
 * must hold the partition key, and (row_id, height) takes 8 bytes more an entry than (row_id) does. Lists
 * and cursors in row-id order merge the partitions' indexes; the indexer numbers the rows (EntityStates).
 */
const ROW_ID_INDEX: IndexDef = { columns: ['row_id'], unique: false, using: 'btree', except: [], exceptArgs: [] };

/** The indexes the migrator keeps on a table: the declared ones, and a partitioned table's row-id index. */
export function tableIndexes(table: TableDef): readonly IndexDef[] {
  return isPartitioned(table) ? [ROW_ID_INDEX, ...table.indexes] : table.indexes;
}

/** What `create table (…)` of a partitioned table ends with. */
export function partitionClause(table: TableDef): string {
  return isPartitioned(table) ? ` partition by range (${quote(table.heightColumn!)})` : '';
}

const relation = (table: TableDef, storage = table.storage): string => `${quote(table.schema)}.${quote(storage)}`;
const defaultPartition = (table: TableDef): string => relation(table, `${table.storage}_default`);

/** A new partitioned table's default partition. */
export async function createDefaultPartition(trx: Knex.Transaction, table: TableDef): Promise<void> {
  await trx.raw(`create table ${defaultPartition(table)} partition of ${relation(table)} default`);
}

/** The height ranges [from, to) of a table's range partitions, from the server's catalog. */
export async function partitionRanges(
  knex: Knex,
  table: TableDef,
): Promise<Array<{ name: string; from: number; to: number }>> {
  const { rows } = await knex.raw<{ rows: Array<{ name: string; bound: string }> }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
       from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(?)`,
    [relation(table)],
  );
  return rows.flatMap(({ name, bound }) => {
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(bound);
    return m ? [{ name, from: Number(m[1]), to: Number(m[2]) }] : [];
  });
}

/**
 * Makes the table's ranges of `span` heights that hold heights `lowest` to `highest` where no partition
 * holds any of them (an operator's own ranges stay as they are). The default partition's rows of a new
 * range move into it in the same transaction (Postgres refuses a range the default partition has rows of).
 */
export async function coverHeights(trx: Knex.Transaction, table: TableDef, lowest: number, highest: number) {
  if (!isPartitioned(table)) return;
  const span = table.partitionSpan;
  const existing = await partitionRanges(trx, table);
  const names = storedColumns(table)
    .map((c) => quote(c.name))
    .join(', ');
  const height = quote(table.heightColumn!);
  for (let from = Math.floor(lowest / span) * span; from <= highest; from += span) {
    const to = from + span;
    if (existing.some((r) => r.from < to && r.to > from)) continue;
    const held = `pg_temp.${quote(`tzidx_range_${table.storage}`)}`;
    await trx.raw(`create temporary table ${held} (like ${relation(table)}) on commit drop`);
    await trx.raw(
      `with moved as (delete from ${defaultPartition(table)} where ${height} >= ? and ${height} < ? returning ${names})
       insert into ${held} (${names}) select ${names} from moved`,
      [from, to],
    );
    await trx.raw(
      `create table ${relation(table, `${table.storage}_h${from}`)} partition of ${relation(table)}
         for values from (${from}) to (${to})`,
    );
    await trx.raw(`insert into ${relation(table)} (${names}) select ${names} from ${held}`);
    await trx.raw(`drop table ${held}`);
  }
}

/** Ranges for the rows the default partition holds (written where no range was yet). */
export async function coverDefault(trx: Knex.Transaction, table: TableDef): Promise<void> {
  const height = quote(table.heightColumn!);
  const { rows } = await trx.raw(
    `select min(${height}) as lowest, max(${height}) as highest from ${defaultPartition(table)}`,
  );
  if (rows[0].highest !== null) await coverHeights(trx, table, Number(rows[0].lowest), Number(rows[0].highest));
}

/** How long making a range waits for readers of the table (it locks the table a moment) before it is left for later. */
const LOCK_WAIT = '2s';

/**
 * The indexer's side: before a batch, the ranges of its heights and of the next span exist, each table's
 * made in a short transaction of its own (creating a partition locks its table: not for a whole batch).
 * A range that cannot be made now (its table busy) loses nothing: its rows go to the default partition
 * until a later batch makes the range, which takes them.
 */
export class HeightPartitions {
  private readonly tables: Array<TableDef & { partitionSpan: number }>;
  /** Per table, the heights known to have their ranges. */
  private readonly covered = new Map<TableDef, { from: number; to: number }>();

  constructor(
    catalog: Catalog,
    private readonly log: Logger,
  ) {
    this.tables = [...catalog.tables.values()].flatMap(physicalTables).filter(isPartitioned);
  }

  async ahead(knex: Knex, lowest: number, highest: number): Promise<void> {
    for (const table of this.tables) {
      const from = Math.floor(lowest / table.partitionSpan) * table.partitionSpan;
      const to = highest + table.partitionSpan;
      const known = this.covered.get(table);
      if (known && known.from <= from && to <= known.to) continue;
      try {
        await knex.transaction(async (trx) => {
          await trx.raw(`select set_config('lock_timeout', ?, true)`, [LOCK_WAIT]);
          await coverHeights(trx, table, from, to);
        });
        this.covered.set(table, { from, to: (Math.floor(to / table.partitionSpan) + 1) * table.partitionSpan });
      } catch (e) {
        this.log.warn(
          { err: e, table: table.storage },
          'a height range could not be made now: its rows wait in the default partition',
        );
      }
    }
  }
}
