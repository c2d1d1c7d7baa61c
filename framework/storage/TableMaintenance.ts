import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import type { Logger } from '../util/Logger';
import type { DatabaseKind } from './Database';
import { META_SCHEMA, quote } from './SchemaMigrator';

/** A table's counters from the server's statistics, and its size as the last VACUUM or ANALYZE counted it. */
interface TableActivity {
  schemaname: string;
  relname: string;
  /** The partitioned table it is a partition of (HeightPartitions), qualified and quoted; null if none. */
  root: string | null;
  n_dead_tup: string;
  n_mod_since_analyze: string;
  n_ins_since_vacuum: string;
  reltuples: string;
}

/** What a round of maintenance ran: the tables vacuumed (and analyzed) and the tables only analyzed. */
export interface MaintenanceRound {
  vacuumed: string[];
  analyzed: string[];
}

/**
 * VACUUM and ANALYZE of the instance's tables where no autovacuum does them: on PGlite, which has no
 * autovacuum worker, and on a Postgres server that runs with autovacuum off. Why: without VACUUM a
 * mutable table (account, contract, rights, income…) keeps every row version an update left dead,
 * so it grows with every block instead of with its live rows; without ANALYZE the planner has no
 * statistics (a table never analyzed is planned as if it held a few pages), so a route that plans
 * well on a served database plans blind on these. The thresholds are autovacuum's defaults, read
 * from the same statistics: a VACUUM once dead rows pass 50 + 20 % of the table, or rows inserted
 * since the last one pass 1,000 + 20 % (it marks the pages all-visible for index-only scans); an
 * ANALYZE once rows changed since the last pass 50 + 10 %. So each table is visited as its activity
 * calls for, and the work follows the rows written, not the table's size. Tables a VACUUM or
 * ANALYZE of someone else holds are skipped (`skip_locked`) and left for a later round.
 */
export class TableMaintenance {
  private readonly schemas: string[];
  /** Whether the indexer maintains the tables itself: known after the first round. */
  private active?: boolean;
  /** When the statistics were last read; the first round comes an interval after the start, so a
   * short run (a test, a CLI command) does not pay for a round before it has written anything. */
  private last = performance.now();

  constructor(
    catalog: Catalog,
    private readonly kind: DatabaseKind,
    private readonly log: Logger,
    /** Least time between two reads of the statistics (autovacuum's own naptime is a minute). */
    private readonly intervalMs: number,
  ) {
    this.schemas = [...new Set([META_SCHEMA, ...[...catalog.tables.values()].map((t) => t.schema)])];
  }

  /** Runs after a committed batch: vacuums and analyzes what is due, if no autovacuum will. */
  async afterCommit(knex: Knex): Promise<MaintenanceRound | undefined> {
    const now = performance.now();
    if (now - this.last < this.intervalMs) return undefined;
    this.last = now;
    this.active ??= await this.needed(knex);
    if (!this.active) return undefined;
    return this.round(knex);
  }

  private async needed(knex: Knex): Promise<boolean> {
    const needed =
      this.kind === 'pglite' || (await knex.raw(`select current_setting('autovacuum') as on`)).rows[0].on === 'off';
    if (needed)
      this.log.info(
        { database: this.kind },
        'no autovacuum runs here: the indexer vacuums and analyzes its tables itself',
      );
    return needed;
  }

  /** One round now, whoever else vacuums (the disk bench's cleanup at its measuring points). */
  async round(knex: Knex): Promise<MaintenanceRound> {
    // PGlite's one backend hands its counters to the statistics only when asked to.
    if (this.kind === 'pglite') await knex.raw('select pg_stat_force_next_flush()');
    const { rows } = await knex.raw<{ rows: TableActivity[] }>(
      `select s.schemaname, s.relname, s.n_dead_tup, s.n_mod_since_analyze, s.n_ins_since_vacuum, c.reltuples,
              case when c.relispartition then pg_partition_root(s.relid)::regclass::text end as root
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = any(?)`,
      [this.schemas],
    );
    const done: MaintenanceRound = { vacuumed: [], analyzed: [] };
    for (const r of rows) {
      const size = Math.max(Number(r.reltuples), 0);
      const name = `${quote(r.schemaname)}.${quote(r.relname)}`;
      if (Number(r.n_dead_tup) > 50 + 0.2 * size || Number(r.n_ins_since_vacuum) > 1000 + 0.2 * size)
        done.vacuumed.push(name);
      else if (Number(r.n_mod_since_analyze) > 50 + 0.1 * size) done.analyzed.push(name);
      else continue;
      // A partitioned table has no counters of its own (nor does autovacuum analyze it): its statistics, which
      // the planner reads for the whole table, are taken when one of its partitions is due.
      if (r.root !== null && !done.analyzed.includes(r.root)) done.analyzed.push(r.root);
    }
    // VACUUM cannot run in a transaction: each statement on its own, outside the batch's.
    if (done.vacuumed.length > 0) await knex.raw(`vacuum (analyze, skip_locked) ${done.vacuumed.join(', ')}`);
    if (done.analyzed.length > 0) await knex.raw(`analyze (skip_locked) ${done.analyzed.join(', ')}`);
    if (done.vacuumed.length + done.analyzed.length > 0) this.log.debug(done, 'tables maintained');
    return done;
  }
}
