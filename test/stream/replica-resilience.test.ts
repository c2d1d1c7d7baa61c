import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { expect } from 'chai';
import { Client } from 'pg';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { stop, waitFor } from '../support/CrashRun';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { SseReader } from './SseReader';

/**
 * Issue #51: a `tzidx serve` replica (a child process, on the indexer's Postgres database) whose
 * backends are all terminated, several times, lives on: requests caught in flight get a 503 with
 * Retry-After, the next ones a 200 again, and /stream delivers what is committed after the drops.
 */
const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');
const DROPS = 3;

const TITLE = 'a tzidx serve replica whose database connections are terminated';

describe(`${TITLE} (${BACKEND}; Postgres only: a replica shares the indexer's server)`, function () {
  this.timeout(240_000);
  let indexer: TestInstance;
  let replica: ChildProcess;
  let url: string;
  /**
   * Terminates backends; `locker` holds a table lock meanwhile (a session of its own: within a
   * transaction, pg_stat_activity stays the snapshot first read).
   */
  let admin: Client;
  let locker: Client;
  let lockerPid: number;
  let log = '';
  const chain = new SandboxChain({ seed: 'replica-drops', profile: 'tiny' });

  before(async function () {
    if (BACKEND !== 'postgres') this.skip();
    indexer = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), enabled: ['core-chain'] });
    chain.bake(6);
    await indexSandbox(indexer, chain);
    replica = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--plugins', 'core-chain', '--log-level', 'info'], {
      env: { ...process.env, DATABASE_URL: indexer.app.config.databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [replica.stdout!, replica.stderr!]) s.on('data', (chunk: Buffer) => (log += chunk.toString()));
    url = await waitFor('the replica to listen', async () => /"url":"(http:[^"]+)"/.exec(log)?.[1], 60_000);
    admin = new Client({ connectionString: indexer.app.config.databaseUrl });
    locker = new Client({ connectionString: indexer.app.config.databaseUrl });
    await Promise.all([admin.connect(), locker.connect()]);
    lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  });
  after(async () => {
    await admin?.end();
    await locker?.end();
    if (replica) await stop(replica, 'SIGTERM');
    await indexer?.close();
  });

  /** Terminates every backend of the database but the test's: the replica's, and the in-process indexer's. */
  const terminateAll = async (): Promise<number> => {
    const r = await admin.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and pid <> $1`,
      [lockerPid],
    );
    return r.rows[0].n;
  };
  const alive = (): void => {
    expect(replica.exitCode, `the replica exited; its output:\n${log}`).to.equal(null);
    expect(replica.signalCode).to.equal(null);
  };

  it(`lives on through ${DROPS} drops: requests in flight get 503 JSON with Retry-After, later ones 200`, async () => {
    const block = indexer.app.catalog.table('block')!;
    for (let drop = 0; drop < DROPS; drop++) {
      // Holding the block table's lock keeps the replica's reads of it in flight until the drop.
      await locker.query('begin');
      await locker.query(`lock table "${block.schema}"."${block.storage}" in access exclusive mode`);
      const inFlight = [fetch(`${url}/tables/block?columns=height,hash`), fetch(`${url}/explorer/block/3`)];
      await waitFor(
        'both reads to wait for the lock',
        async () => {
          const r = await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`,
          );
          return r.rows[0].n >= 2 ? true : undefined;
        },
        30_000,
      );
      expect(await terminateAll()).to.be.at.least(2);
      await locker.query('rollback');
      for (const res of await Promise.all(inFlight)) {
        expect(res.status, `drop ${drop}: ${res.url}`).to.equal(503);
        expect(res.headers.get('retry-after')).to.match(/^\d+$/);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        const body = (await res.json()) as { errors: Array<{ status: number; detail: string }> };
        expect(body.errors[0].status).to.equal(503);
        expect(body.errors[0].detail).to.not.match(/select|from/i);
      }
      alive();
      // Serving again within seconds: the pools opened new connections.
      const served = async (): Promise<true | undefined> =>
        (await fetch(`${url}/tables/block?columns=height&limit=1`)).status === 200 ? true : undefined;
      const ok = await waitFor('a 200 after the drop', served, 20_000);
      expect(ok).to.equal(true);
      const obj = await fetch(`${url}/explorer/block/3`);
      expect(obj.status).to.equal(200);
    }
    alive();
  });

  it('/stream reconnects its LISTEN and delivers the blocks committed after the drops', async () => {
    const reader = await SseReader.open(`${url}/stream?types=block`);
    try {
      expect(reader.status).to.equal(200);
      for (let drop = 0; drop < DROPS; drop++) {
        await terminateAll();
        const back = () => (log.match(/stream LISTEN connection back/g) ?? []).length;
        const before = back();
        await waitFor('the LISTEN connection back', async () => (back() > before ? true : undefined), 20_000);
      }
      alive();
      chain.bake(3);
      await indexSandbox(indexer, chain);
      const head = chain.at(chain.headLevel)!.hash;
      const headSeen = (): boolean => reader.events('block').some((m) => m.data.hash === head);
      await reader.until(headSeen, 30_000, 'the new head block on the replica');
      expect(reader.events('block').map((m) => m.data.level)).to.deep.equal([7, 8, 9]);
      expect(reader.ended).to.equal(false);
    } finally {
      reader.close();
    }
    alive();
  });
});
