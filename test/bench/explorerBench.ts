// The load generator runs in a worker that loads this file without run.ts, and tsyringe needs the polyfill.
import 'reflect-metadata';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Client, Pool as PgPool } from 'pg';
import { Pool as HttpPool } from 'undici';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { Prng } from '../../framework/sandbox/Prng';
import { quote } from '../../framework/storage/SchemaMigrator';
import { indexSandbox } from '../support/IndexHarness';
import { postgresUrl } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';
import { BenchResult, percentiles, seconds } from './measure';

const BLOCKS = Number(process.env.TZIDX_BENCH_EXPLORER_BLOCKS ?? 1000);
/**
 * Concurrent clients and which op groups they ask for: all (as on mainnet, mostly single attestations),
 * or only groups with a manager operation (a counter), whose objects need more lookups. One client
 * first, on a server that has seen no load: under load, lookups batch many keys, and what Postgres
 * learns from them about a statement's plans would hide what a lightly used server pays.
 */
const LOADS: { clients: number; managerOnly: boolean }[] = [
  { clients: 1, managerOnly: false },
  { clients: 32, managerOnly: false },
  { clients: 32, managerOnly: true },
];
const WARMUP_MS = 2_000;
const MEASURE_MS = 10_000;

/** What one load run is told: where to send, which op groups exist and how many rows each has. */
interface LoadSpec {
  target: 'explorer' | 'floor';
  /** The API's base URL, or the database URL for the floor. */
  url: string;
  /** `"schema"."table"` of op, for the floor's query. */
  opTable: string;
  hashes: string[];
  rowCounts: number[];
  clients: number;
}

interface LoadResult {
  requests: number;
  seconds: number;
  /** Milliseconds per request. */
  latencies: number[];
}

/**
 * GET /explorer/op/{hash} on Postgres under a load generator (undici, keep-alive, in a worker thread so
 * it does not share the server's event loop) with 32 or 1 concurrent clients, each asking for op
 * groups drawn at random (seeded) from a mainnet-like sandbox chain. Floor: the op rows of the same
 * groups by hash through a `pg` Pool with as many connections as clients, in the same run. Every answer
 * is checked: 200 and as many operations as the group has rows.
 */
export async function explorerBench(): Promise<BenchResult[]> {
  const reachable = await postgresReachable();
  if (reachable !== true) {
    process.stdout.write(`explorer: skipped, Postgres unreachable at ${postgresUrl()} (${reachable})\n`);
    return [];
  }
  const g0 = process.hrtime.bigint();
  const chain = new SandboxChain({ seed: 'bench', profile: 'mainnet-like' });
  chain.bake(BLOCKS);
  const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), enabled: ['core-chain'] });
  try {
    await indexSandbox(t, chain);
    const setup = seconds(g0);
    const op = t.app.catalog.table('op')!;
    const opTable = `${quote(op.schema)}.${quote(op.storage)}`;
    const client = new Client({ connectionString: t.app.config.databaseUrl });
    await client.connect();
    let groups: { hash: string; n: string; manager: boolean }[];
    let rows: number;
    try {
      await client.query(`analyze ${opTable}`);
      // Contract events are not operations of their group (the route leaves them out).
      groups = (
        await client.query(
          `select hash, count(*) as n, bool_or(counter is not null) as manager from ${opTable} where hash is not null and type <> 'event' group by hash order by hash`,
        )
      ).rows;
      rows = Number((await client.query(`select count(*) as n from ${opTable}`)).rows[0].n);
    } finally {
      await client.end();
    }
    const managers = groups.filter((g) => g.manager).length;
    const out: BenchResult[] = [
      {
        name: `explorer: generate and index ${BLOCKS} mainnet-like blocks (${rows.toLocaleString('en-US')} op rows, ${groups.length.toLocaleString('en-US')} op groups, ${managers.toLocaleString('en-US')} with manager operations), core-chain, Postgres`,
        seconds: setup,
      },
    ];
    for (const { clients, managerOnly } of LOADS) {
      const chosen = managerOnly ? groups.filter((g) => g.manager) : groups;
      const base = { opTable, hashes: chosen.map((g) => g.hash), rowCounts: chosen.map((g) => Number(g.n)), clients };
      const what = `${clients} concurrent, ${managerOnly ? 'manager op groups' : 'all op groups'}`;
      const floor = await runLoad({ ...base, target: 'floor', url: t.app.config.databaseUrl! });
      const ours = await runLoad({ ...base, target: 'explorer', url: t.url });
      out.push(loadResult(`explorer floor: pg Pool, op rows by hash, ${what}`, floor));
      out.push({
        ...loadResult(`explorer: GET /explorer/op/{hash}, keep-alive undici clients, ${what}`, ours),
        ratio: rate(floor) / rate(ours),
        ...targets(clients, managerOnly, ours),
      });
    }
    return out;
  } finally {
    await t.close();
  }
}

async function postgresReachable(): Promise<true | string> {
  const client = new Client({ connectionString: postgresUrl(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return true;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Issue #18's targets for all op groups: at 32 clients ≥ 3,000 req/s and ≤ 2.5× the floor; 1 client p50 ≤ 0.4 ms. */
function targets(clients: number, managerOnly: boolean, r: LoadResult): Partial<BenchResult> {
  if (managerOnly) return {};
  if (clients === 1) return { checks: [{ target: 'p50 <= 0.4 ms', met: percentiles(r.latencies, [0.5])[0] <= 0.4 }] };
  return { target: 2.5, checks: [{ target: '>= 3,000 req/s', met: rate(r) >= 3000 }] };
}

/** Requests/s over the measured window; p50 and p99 in the name, since a result line has one time. */
function loadResult(name: string, r: LoadResult): BenchResult {
  const [p50, p99] = percentiles(r.latencies, [0.5, 0.99]);
  return {
    name: `${name} (${r.requests.toLocaleString('en-US')} requests, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms)`,
    seconds: r.seconds,
    rate: rate(r),
    unit: 'req/s',
  };
}

function rate(r: LoadResult): number {
  return r.requests / r.seconds;
}

function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { explorerLoad: spec } });
    let result: LoadResult | undefined;
    worker.once('message', (r: LoadResult) => (result = r));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`explorer load worker exited with code ${code} and no result`)),
    );
  });
}

/** How one load reaches its target: a request for op group `i`, and the entries its answer has. */
interface Target<A> {
  request(i: number): Promise<A>;
  /** Throws when the answer is not a success. */
  entries(answer: A, i: number): number;
  close(): Promise<void>;
}

async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  const target: Target<unknown> = spec.target === 'floor' ? floorTarget(spec) : explorerTarget(spec);
  try {
    await drive(spec, target, WARMUP_MS);
    return await drive(spec, target, MEASURE_MS);
  } finally {
    await target.close();
  }
}

/**
 * `spec.clients` loops, each with its own seeded stream of groups, sending until the deadline. The
 * latency ends when the answer is in; checking it (JSON.parse for the API) comes after.
 */
async function drive<A>(spec: LoadSpec, target: Target<A>, ms: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(ms) * 1_000_000n;
  await Promise.all(
    Array.from({ length: spec.clients }, async (_, c) => {
      const prng = Prng.derive('explorer-bench', spec.clients, c);
      for (let t0 = process.hrtime.bigint(); t0 < deadline; t0 = process.hrtime.bigint()) {
        const i = prng.int(spec.hashes.length);
        const answer = await target.request(i);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        const n = target.entries(answer, i);
        if (n !== spec.rowCounts[i])
          throw new Error(
            `op group ${spec.hashes[i]}: ${n} entries in the answer, ${spec.rowCounts[i]} op rows in the table`,
          );
      }
    }),
  );
  return { requests: latencies.length, seconds: seconds(start), latencies };
}

function floorTarget(spec: LoadSpec): Target<unknown[]> {
  const pool = new PgPool({ connectionString: spec.url, max: spec.clients });
  const text = `select * from ${spec.opTable} where hash = $1 and type <> 'event' order by height, op_n`;
  return {
    request: async (i) => (await pool.query({ name: 'op-group', text, values: [spec.hashes[i]] })).rows,
    entries: (rows) => rows.length,
    close: () => pool.end(),
  };
}

function explorerTarget(spec: LoadSpec): Target<{ status: number; text: string }> {
  const pool = new HttpPool(spec.url, { connections: spec.clients });
  return {
    request: async (i) => {
      const res = await pool.request({ path: `/explorer/op/${spec.hashes[i]}`, method: 'GET' });
      return { status: res.statusCode, text: await res.body.text() };
    },
    entries: ({ status, text }, i) => {
      if (status !== 200)
        throw new Error(`GET /explorer/op/${spec.hashes[i]}: status ${status}: ${text.slice(0, 200)}`);
      const body: unknown = JSON.parse(text);
      if (!Array.isArray(body))
        throw new Error(`GET /explorer/op/${spec.hashes[i]}: not an array: ${text.slice(0, 200)}`);
      return body.length;
    },
    close: () => pool.close(),
  };
}

// In the load worker: run the load and hand the latencies back (a failure ends the worker with the error).
if (!isMainThread && workerData?.explorerLoad) {
  void generateLoad(workerData.explorerLoad as LoadSpec).then((r) => parentPort!.postMessage(r));
}
