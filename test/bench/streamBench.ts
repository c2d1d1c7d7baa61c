import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance } from '../support/TestInstance';
import { SseReader } from '../stream/SseReader';
import { BenchResult, percentiles } from './measure';

const CLIENTS = Number(process.env.TZIDX_BENCH_STREAM_CLIENTS ?? 100);
const BLOCKS = Number(process.env.TZIDX_BENCH_STREAM_BLOCKS ?? 30);

/**
 * Latency from a block's commit to its `block` event reaching SSE clients: a sandbox chain indexed
 * block by block (live mode), CLIENTS readers on /stream; the commit instant is taken when the
 * indexer's transaction resolves, each arrival when the reader parses the event. p50 and p99 over
 * every (client, block) pair.
 */
export async function streamBench(): Promise<BenchResult[]> {
  const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
  try {
    const committedAt = new Map<number, number>();
    t.app.dispatcher.afterBatch((trx, _from, to) => {
      trx.executionPromise.then(
        () => committedAt.set(to, performance.now()),
        () => undefined,
      );
    });
    const chain = new SandboxChain({ seed: 'stream-bench', profile: 'tiny' });
    chain.bake(5);
    await indexSandbox(t, chain);
    const arrivals: Array<Map<number, number>> = [];
    const readers: SseReader[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const seen = new Map<number, number>();
      arrivals.push(seen);
      readers.push(
        await SseReader.open(
          `${t.url}/stream?types=block`,
          {},
          (m) => (seen.set(m.data.level as number, performance.now()), m),
        ),
      );
    }
    for (let i = 0; i < BLOCKS; i++) {
      chain.bake(1);
      await indexSandbox(t, chain);
    }
    const head = chain.headLevel;
    for (const r of readers)
      await r.until(() => r.events('block').some((m) => m.data.level === head), 30_000, 'the head');
    readers.forEach((r) => r.close());
    const latencies: number[] = [];
    for (const seen of arrivals)
      for (const [level, at] of seen) if (committedAt.has(level)) latencies.push(at - committedAt.get(level)!);
    const [p50, p99] = percentiles(latencies, [0.5, 0.99]);
    return [
      {
        name: `stream latency commit → SSE p50 (${CLIENTS} clients, ${latencies.length} deliveries, ${t.app.db.kind})`,
        seconds: p50 / 1000,
      },
      {
        name: `stream latency commit → SSE p99 (${CLIENTS} clients, ${latencies.length} deliveries, ${t.app.db.kind})`,
        seconds: p99 / 1000,
      },
    ];
  } finally {
    await t.close();
  }
}
