import { ChainState } from '../../framework/indexer/ChainState';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { TestInstance } from './TestInstance';

/**
 * Returns a started test instance to the state it had before anything was indexed, so a file that
 * indexes many unrelated inputs (one recorded block each) pays for one instance instead of one per
 * input (starting one costs seconds on PGlite). Tables made since (series rollups) are dropped, those
 * empty at the baseline emptied with their sequences restarted (the filled ones are the migrations'
 * bookkeeping, which indexing does not write), the plugins' state between blocks dropped (as after a
 * failed batch: the tables are the truth again), and the in-memory chain and indexer status cleared.
 * The indexer's own state goes with each run (it reloads from the tables). Not reset, so not for tests
 * of them: the live stream's read position and the cache of contract types (contract adapters only).
 */
export class DatabaseBaseline {
  private constructor(
    /** `"schema"."table"` of every table at the baseline, each with whether it held rows then. */
    private readonly tables: ReadonlyMap<string, boolean>,
  ) {}

  /** Records the tables of a freshly started instance. */
  static async take(t: TestInstance): Promise<DatabaseBaseline> {
    const tables = new Map<string, boolean>();
    for (const name of await tableNames(t)) {
      const { rows } = await t.app.db.writer.raw(`select exists (select 1 from ${name}) as filled`);
      tables.set(name, rows[0].filled === true);
    }
    return new DatabaseBaseline(tables);
  }

  /** Back to the baseline; the instance's indexer must not be running. */
  async restore(t: TestInstance): Promise<void> {
    const names = await tableNames(t);
    const created = names.filter((n) => !this.tables.has(n));
    const emptied = [...this.tables].filter(([, filled]) => !filled).map(([n]) => n);
    const db = t.app.db.writer;
    if (created.length > 0) await db.raw(`drop table ${created.join(', ')} cascade`);
    if (emptied.length > 0) await db.raw(`truncate ${emptied.join(', ')} restart identity cascade`);
    t.app.dispatcher.state.drop();
    t.app.container
      .resolve(ChainState)
      .update({
        height: undefined,
        networkId: undefined,
        protocol: undefined,
        headTime: undefined,
        blockInterval: undefined,
      });
    Object.assign(t.app.container.resolve(IndexerStatus), {
      mode: 'serve',
      status: 'stopped',
      blocks: -1,
      indexed: -1,
      firstLevel: undefined,
      lastError: undefined,
    });
  }
}

async function tableNames(t: TestInstance): Promise<string[]> {
  const { rows } = await t.app.db.writer.raw(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
  );
  return rows.map((r: { name: string }) => r.name);
}
