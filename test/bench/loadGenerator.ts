import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { Prng } from '../../framework/sandbox/Prng';
import { Kind, KINDS, Mix, WEIGHTS } from './loadMix';

/** What the load generator is told: where, what, how many clients, for how long. */
export interface LoadSpec {
  url: string;
  mix: Mix;
  clients: number;
  warmupSeconds: number;
  seconds: number;
  /** A request with no complete answer after this long is a failure (a timeout). */
  timeoutMs: number;
}

/** What came back over the measured window. */
export interface LoadTally {
  seconds: number;
  /** Milliseconds per answered request, by kind of route. */
  latencies: Record<Kind, number[]>;
  /** Bytes of the answers' bodies. */
  bytes: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** 503s with Retry-After: admission control refusing, not a failure. */
  admission: number;
  /** Requests with no answer (connection errors, timeouts), by error code. */
  failed: Record<string, number>;
}

/**
 * Runs the load in a worker thread, so the clients do not share the server's event loop (as
 * explorerBench does); resolves with the tally of the measured window.
 */
export function runLoad(spec: LoadSpec): Promise<LoadTally> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { load: spec } });
    let tally: LoadTally | undefined;
    worker.once('message', (r: LoadTally) => (tally = r));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      tally ? resolve(tally) : reject(new Error(`load worker exited with code ${code} and no result`)),
    );
  });
}

/**
 * `clients` keep-alive connections, each a loop drawing a kind by weight, then a path of that kind
 * (seeded per client), reading the whole answer, until the deadline; a warm-up run first.
 */
async function generate(spec: LoadSpec): Promise<LoadTally> {
  const pool = new Pool(spec.url, {
    connections: spec.clients,
    headersTimeout: spec.timeoutMs,
    bodyTimeout: spec.timeoutMs,
  });
  try {
    await drive(spec, pool, spec.warmupSeconds, 'warmup');
    return await drive(spec, pool, spec.seconds, 'measure');
  } finally {
    await pool.close();
  }
}

async function drive(spec: LoadSpec, pool: Pool, seconds: number, phase: string): Promise<LoadTally> {
  const tally: LoadTally = {
    seconds: 0,
    latencies: { tables: [], series: [], explorer: [], plugins: [] },
    bytes: 0,
    statuses: {},
    admission: 0,
    failed: {},
  };
  const kinds = KINDS.filter((k) => spec.mix[k].length > 0);
  const weights = kinds.map((k) => WEIGHTS[k]);
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  await Promise.all(
    Array.from({ length: spec.clients }, async (_, c) => {
      const prng = Prng.derive('load-bench', phase, c);
      for (let t0 = process.hrtime.bigint(); t0 < deadline; t0 = process.hrtime.bigint()) {
        const kind = kinds[prng.weighted(weights)];
        const path = prng.pick(spec.mix[kind]);
        try {
          const res = await pool.request({ path, method: 'GET' });
          for await (const chunk of res.body) tally.bytes += (chunk as Buffer).length;
          tally.latencies[kind].push(Number(process.hrtime.bigint() - t0) / 1e6);
          tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode === 503 && res.headers['retry-after'] !== undefined) tally.admission++;
        } catch (e) {
          const code = (e as { code?: string }).code ?? (e as Error).name;
          tally.failed[code] = (tally.failed[code] ?? 0) + 1;
        }
      }
    }),
  );
  tally.seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return tally;
}

// In the load worker: run the load and hand the tally back (a failure ends the worker with the error).
if (!isMainThread && workerData?.load) {
  void generate(workerData.load as LoadSpec).then((r) => parentPort!.postMessage(r));
}
