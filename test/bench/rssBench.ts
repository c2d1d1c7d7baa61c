import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandboxServer } from '../../framework/sandbox/SandboxHttpServer';
import { indexedHeight, instance, startIndexer, stop, waitFor } from '../support/CrashRun';
import { BenchResult, mib, seconds } from './measure';

const BLOCKS = Number(process.env.TZIDX_BENCH_RSS_BLOCKS ?? 10_000);
const GIB = 2 ** 30;
const HEAP_SAMPLE_MS = 500;

/**
 * The indexer's memory over a long backfill, measured where it runs in production: `tzidx start` in a
 * process of its own (CrashRun's child), every plugin on, indexing a mainnet-like sandbox chain of
 * 10,000 blocks from the node RPC over HTTP into Postgres. The sandbox node is this process (a real
 * node is not the indexer's memory either). The peak is the kernel's high-water mark of the child's
 * resident set (VmHWM), so no short peak between two samples is missed.
 */
export async function rssBench(): Promise<BenchResult[]> {
  const g0 = process.hrtime.bigint();
  const sandbox = await startSandboxServer({
    port: 0,
    seed: 'bench',
    profile: 'mainnet-like',
    historyBlocks: BLOCKS,
    blockIntervalMs: 0,
  });
  const generation = seconds(g0);
  const root = mkdtempSync(path.join(tmpdir(), 'tzidx-rss-'));
  const i = await instance(root, 'indexer', '');
  try {
    const child = startIndexer(i, sandbox.url, BLOCKS);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    try {
      const t0 = process.hrtime.bigint();
      let heap = 0;
      let sampled = 0;
      await waitFor(
        `the backfill of ${BLOCKS} blocks`,
        async () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new Error(`the indexer process ended before level ${BLOCKS}: ${stderr}`);
          if (Date.now() - sampled >= HEAP_SAMPLE_MS) {
            sampled = Date.now();
            heap = Math.max(heap, await heapUsed(i.port));
          }
          return (await indexedHeight(i)) === BLOCKS ? true : undefined;
        },
        60 * 60_000,
      );
      const indexing = seconds(t0);
      const { peak, now } = memory(child.pid!);
      return [
        {
          name: `rss: sandbox node: ${BLOCKS} mainnet-like blocks generated`,
          seconds: generation,
          rate: BLOCKS / generation,
          unit: 'blocks/s',
        },
        {
          name: `rss: \`tzidx start\` in its own process indexed ${BLOCKS} blocks from the node over HTTP, all built-in plugins, Postgres (the node in the bench process shares the 2 cores)`,
          seconds: indexing,
          rate: BLOCKS / indexing,
          unit: 'blocks/s',
        },
        {
          name: `rss: the indexer process's peak resident set (VmHWM) over the ${BLOCKS}-block backfill (${mib(now)} MiB at the end; JS heap in use at most ${mib(heap)} MiB by /metrics), ratio to 1 GiB`,
          seconds: indexing,
          figure: { value: peak / 2 ** 20, unit: 'MiB' },
          ratio: peak / GIB,
          checks: [{ target: '< 1 GiB over a 10,000-block backfill', met: BLOCKS >= 10_000 ? peak < GIB : undefined }],
        },
      ];
    } finally {
      await stop(child, 'SIGTERM');
    }
  } finally {
    await sandbox.close();
    await i.db.drop();
    rmSync(root, { recursive: true, force: true });
  }
}

/** `nodejs_heap_size_used_bytes` of the instance's /metrics (0 while its API is not up). */
async function heapUsed(port: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** The process's peak and current resident set, from /proc (Linux). */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kib('VmHWM'), now: kib('VmRSS') };
}
