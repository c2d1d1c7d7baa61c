import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { physicalTables } from '../catalog/CatalogModel';
import { indexName, quote } from './SchemaMigrator';

/** How long a batch waits for a table a VACUUM holds before leaving its ranges to the vacuum or the next batch. */
const LOCK_WAIT = '20ms';

/**
 * Summarizes the catalog's BRIN indexes after each committed batch. Why: a BRIN index knows only the
 * block ranges summarized when it was built or by a VACUUM since; every query through it reads all
 * the other pages. The catalog's BRIN indexes are built on empty tables, and autovacuum visits an
 * append table only after it grew by a fifth (never on PGlite, nor with autovacuum off), so the
 * newest fifth of `op` or more, the part time filters ask for most, would be read whole by every one.
 * Summarizing what a batch appended reads pages it just wrote (in cache). A VACUUM of the table
 * holds the lock this takes; rather than wait for it (or have it cancelled) the batch leaves those
 * ranges to the vacuum, which summarizes them too, or to the next batch.
 */
/**
 * One index's summary: of itself, or of each partition's index when its table is partitioned (HeightPartitions).
 */
const SUMMARIZE = `for leaf in select ?::regclass where not exists (select from pg_inherits where inhparent = ?::regclass)
    union all select relid from pg_partition_tree(?::regclass) where isleaf loop
  begin perform brin_summarize_new_values(leaf); exception when lock_not_available then null; end; end loop;`;

export class BrinSummaries {
  private readonly indexes: string[];
  private statement?: string;

  constructor(catalog: Catalog) {
    this.indexes = [...catalog.tables.values()]
      .flatMap(physicalTables)
      .flatMap((t) =>
        t.indexes.filter((ix) => ix.using === 'brin').map((ix) => `${quote(t.schema)}.${quote(indexName(t, ix))}`),
      );
  }

  async afterCommit(knex: Knex): Promise<void> {
    if (this.indexes.length === 0) return;
    // One statement a batch, each index on its own: a busy table does not keep the others unsummarized.
    // (A DO block takes no parameters: the names go in as literals.)
    this.statement ??= knex
      .raw(
        `do $$ declare leaf regclass; begin perform set_config('lock_timeout', ?, true); ${this.indexes.map(() => SUMMARIZE).join(' ')} end $$`,
        [LOCK_WAIT, ...this.indexes.flatMap((ix) => [ix, ix, ix])],
      )
      .toQuery();
    await knex.raw(this.statement);
  }
}
