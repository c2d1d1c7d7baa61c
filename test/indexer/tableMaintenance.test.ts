import { expect } from 'chai';
import type { Knex } from 'knex';
import { Client } from 'pg';
import { SandboxChain } from '../../framework/sandbox';
import { TableMaintenance } from '../../framework/storage/TableMaintenance';
import { silentLogger } from '../../framework/util/Logger';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { waitFor } from '../support/CrashRun';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

interface Activity {
  name: string;
  n_live_tup: string;
  n_dead_tup: string;
  n_mod_since_analyze: string;
  vacuum_count: string;
  analyze_count: string;
}

// PGlite has no autovacuum worker, and a server may run with autovacuum off: then the indexer
// vacuums and analyzes its own tables (TableMaintenance), or a mutable table keeps every dead row
// version its updates leave and the planner never gets statistics.
describe(`indexer: tables are vacuumed and analyzed where no autovacuum does it (${BACKEND})`, () => {
  let t: TestInstance;
  beforeEach(async () => {
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
  });
  afterEach(() => t.close());

  async function autovacuumRuns(): Promise<boolean> {
    if (t.app.db.kind === 'pglite') return false;
    return (await t.app.db.writer.raw(`select current_setting('autovacuum') as on`)).rows[0].on === 'on';
  }

  /**
   * The tables' counters (`VACUUM` and `ANALYZE` statements counted apart from autovacuum's). A partitioned
   * table's are its fullest partition's (the rows of these short runs are in one height range).
   */
  async function activity(): Promise<Map<string, Activity>> {
    if (t.app.db.kind === 'pglite') await t.app.db.writer.raw('select pg_stat_force_next_flush()');
    const { rows } = await t.app.db.writer.raw<{ rows: Activity[] }>(
      `select coalesce(pg_partition_root(s.relid)::regclass::text, s.schemaname || '.' || s.relname) as name,
              n_live_tup, n_dead_tup, n_mod_since_analyze, vacuum_count, analyze_count
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname in ('core_chain', 'tzidx') and c.relkind <> 'p' order by n_live_tup`,
    );
    return new Map(rows.map((r) => [r.name, r]));
  }

  /**
   * Waits until the server's statistics count every attestation row (op_attest, op's largest part). A
   * backend hands its counters over at most once a second, and an idle one only ten seconds later; every
   * batch writes attestations, so once they are
   * counted, so is all the batches wrote (account's updates too).
   */
  async function statisticsCaughtUp(): Promise<void> {
    await waitFor(
      'the statistics to count every op row',
      async () => {
        const { rows } = await t.app.db.writer.raw(
          `select (select count(*) from core_chain.op_attest) as n, sum(s.n_tup_ins - s.n_tup_del) as counted
           from pg_stat_user_tables s where s.relid in (select relid from pg_partition_tree('core_chain.op_attest'))`,
        );
        return rows[0].n === rows[0].counted ? true : undefined;
      },
      30_000,
    );
  }

  it('keeps the dead rows of updated tables and the changes since the last analysis under autovacuum’s thresholds', async function () {
    if (await autovacuumRuns()) this.skip(); // the server's own workers do it there (next test)
    const chain = new SandboxChain({ seed: 'maintenance', profile: 'mainnet-like' });
    chain.bake(60);
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, maintenanceIntervalMs: 0 });
    const tables = await activity();
    // account is updated by every block (bakers, attesters), so it is vacuumed, not only analyzed.
    const account = tables.get('core_chain.account')!;
    expect(Number(account.vacuum_count), 'account vacuumed').to.be.above(0);
    const busy = [...tables.values()].filter((r) => Number(r.n_live_tup) > 1000);
    expect(busy.map((r) => r.name)).to.include.members([
      'core_chain.op_attest',
      'core_chain.flow',
      'core_chain.account',
    ]);
    for (const r of busy) {
      expect(Number(r.analyze_count), `${r.name} analyzed`).to.be.above(0);
      // What the last batch (5 blocks) changed may be left for the next round, nothing more.
      const live = Number(r.n_live_tup);
      expect(Number(r.n_dead_tup), `${r.name} dead rows`).to.be.at.most(50 + 0.2 * live + 5 * 400);
      expect(Number(r.n_mod_since_analyze), `${r.name} changes since its analysis`).to.be.at.most(
        50 + 0.1 * live + 5 * 1000,
      );
    }
    // The planner knows the tables' sizes: never analyzed, a table's reltuples is -1.
    const { rows } = await t.app.db.writer.raw(
      `select c.reltuples from pg_class c where c.oid = 'core_chain.op_attest'::regclass`,
    );
    expect(Number(rows[0].reltuples)).to.be.above(1000);
  });

  it('leaves the tables to autovacuum where the server runs it, and maintains them where it does not', async () => {
    const seen: string[] = [];
    const knex = ((sql: string) => seen.push(sql)) as unknown as Knex;
    const fake = (autovacuum: string) =>
      Object.assign(knex, {
        raw: async (sql: string) => {
          seen.push(sql);
          return { rows: sql.includes("current_setting('autovacuum')") ? [{ on: autovacuum }] : [] };
        },
      });
    const maintenance = (kind: 'postgres' | 'pglite') => new TableMaintenance(t.app.catalog, kind, silentLogger, 0);
    expect(await maintenance('postgres').afterCommit(fake('on'))).to.equal(undefined);
    expect(seen.some((s) => s.includes('pg_stat_user_tables'))).to.equal(false);
    expect(await maintenance('postgres').afterCommit(fake('off'))).to.deep.equal({ vacuumed: [], analyzed: [] });
    expect(await maintenance('pglite').afterCommit(fake('on'))).to.deep.equal({ vacuumed: [], analyzed: [] });
  });

  it('reads the statistics at most once an interval, the first time an interval after the start', async () => {
    const m = new TableMaintenance(t.app.catalog, t.app.db.kind, silentLogger, 300);
    expect(await m.afterCommit(t.app.db.writer), 'right after the start').to.equal(undefined);
    await new Promise((r) => setTimeout(r, 350));
    const round = await m.afterCommit(t.app.db.writer);
    expect(round === undefined, 'an interval later').to.equal(await autovacuumRuns());
    expect(await m.afterCommit(t.app.db.writer), 'within the next interval').to.equal(undefined);
  });

  it('does not wait for a table someone else vacuums: it is left to a later round, the others are maintained', async function () {
    this.timeout(120_000); // waiting for the lock would hang the indexer until this
    if (BACKEND !== 'postgres' || (await autovacuumRuns())) this.skip(); // PGlite has one connection
    const chain = new SandboxChain({ seed: 'maintenance', profile: 'mainnet-like' });
    chain.bake(10);
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, maintenanceIntervalMs: 0 });
    const before = await activity();
    // A VACUUM's lock, held by another session while the next blocks are indexed.
    const other = new Client({ connectionString: t.app.config.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('lock table core_chain.account in share update exclusive mode');
      chain.bake(30);
      await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, maintenanceIntervalMs: 0 });
      // On a fast machine the 30 blocks are indexed before any round could see them in the
      // statistics; once they are counted, the next blocks' rounds find op due.
      await statisticsCaughtUp();
      chain.bake(5);
      await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, maintenanceIntervalMs: 0 });
      await other.query('commit');
    } finally {
      await other.end();
    }
    const held = await activity();
    const count = (m: Map<string, Activity>, name: string) =>
      Number(m.get(name)!.vacuum_count) + Number(m.get(name)!.analyze_count);
    expect(count(held, 'core_chain.account')).to.equal(count(before, 'core_chain.account'));
    expect(count(held, 'core_chain.op_attest')).to.be.above(count(before, 'core_chain.op_attest'));
    await statisticsCaughtUp();
    chain.bake(5);
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, maintenanceIntervalMs: 0 });
    expect(count(await activity(), 'core_chain.account')).to.be.above(count(held, 'core_chain.account'));
  });
});
