import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startSandboxServer } from '../../framework/sandbox/SandboxHttpServer';
import { createTestDatabase } from '../support/TestDatabase';
import { BenchResult } from './measure';

const BLOCKS = Number(process.env.TZIDX_BENCH_RSS_BLOCKS ?? 10_000);
const GIB = 2 ** 30;
const CLI = path.resolve(__dirname, '../../framework/cli/tzidx.js');

/**
 * The indexer's memory over a long backfill, measured where it runs in production: `tzidx start` in a
 * process of its own, every plugin on, indexing a mainnet-like sandbox chain of 10,000 blocks from the
 * node RPC over HTTP into Postgres. The sandbox node is this process (a real node is not the indexer's
 * memory either). The peak is the kernel's high-water mark of the child's resident set (VmHWM), so no
 * short peak between two samples is missed.
 */
export async function rssBench(): Promise<BenchResult[]> {
  const g0 = process.hrtime.bigint();
  const sandbox = await startSandboxServer({ port: 0, seed: 'bench', profile: 'mainnet-like', historyBlocks: BLOCKS, blockIntervalMs: 0 });
  const generation = seconds(g0);
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tzidx-rss-'));
  try {
    const port = await freePort();
    const args = ['start', '--rpc', sandbox.url, '--database-url', db.url!, '--data-dir', dataDir, '--port', String(port), '--log-level', 'warn'];
    // The indexer runs with the heap flags the bench runs with (`npm run bench` passes `npm start`'s).
    const flags = process.execArgv.filter((a) => a.startsWith('--max-semi-space-size'));
    const child = spawn(process.execPath, [...flags, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const t0 = process.hrtime.bigint();
      const heap = await untilIndexed(db.url!, `http://127.0.0.1:${port}/metrics`, BLOCKS, () => child.exitCode !== null || child.signalCode !== null, () => stderr);
      const indexing = seconds(t0);
      const { peak, now } = memory(child.pid!);
      return [
        { name: `rss: sandbox node: ${BLOCKS} mainnet-like blocks generated`, seconds: generation, rate: BLOCKS / generation, unit: 'blocks/s' },
        { name: `rss: \`tzidx start\` in its own process indexed ${BLOCKS} blocks from the node over HTTP, all built-in plugins, Postgres (the node in the bench process shares the 2 cores)`, seconds: indexing, rate: BLOCKS / indexing, unit: 'blocks/s' },
        {
          name: `rss: the indexer process's peak resident set (VmHWM) over the ${BLOCKS}-block backfill (${mib(now)} MiB at the end; JS heap in use at most ${mib(heap)} MiB by /metrics), ratio to 1 GiB`,
          seconds: indexing,
          figure: { value: peak / 2 ** 20, unit: 'MiB' },
          ratio: peak / GIB,
          checks: [{ target: '< 1 GiB over a 10,000-block backfill', met: BLOCKS >= 10_000 ? peak < GIB : undefined }],
        },
      ];
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    await sandbox.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Polls the indexer's committed cursor until it reaches `height`, and its JS heap in use (/metrics);
 * answers the most heap seen. Fails if the process ends first.
 */
async function untilIndexed(url: string, metrics: string, height: number, ended: () => boolean, stderr: () => string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  let heap = 0;
  try {
    for (;;) {
      if (ended()) throw new Error(`the indexer process ended before level ${height}: ${stderr()}`);
      const at = await client.query('select height from tzidx.sync_state').then(
        (r) => Number(r.rows[0]?.height ?? 0),
        () => 0, // not migrated yet
      );
      heap = Math.max(heap, await heapUsed(metrics));
      if (at >= height) return heap;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
}

/** `nodejs_heap_size_used_bytes` of a /metrics page (0 while the API is not up). */
async function heapUsed(metrics: string): Promise<number> {
  const text = await fetch(metrics).then((r) => r.text(), () => '');
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** The process's peak and current resident set, from /proc (Linux). */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kib('VmHWM'), now: kib('VmRSS') };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
