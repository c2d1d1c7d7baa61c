import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { METADATA_IMPORT, MetadataImport } from '../../framework/extensions/MetadataImport';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { demoMetadataEntries } from '../../framework/sandbox/DemoMetadata';
import { indexSandbox } from '../support/IndexHarness';
import { postgresUrl } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { LoadTally, runLoad } from './loadGenerator';
import { KINDS, Mix, buildMix } from './loadMix';
import { BenchResult, percentiles, seconds } from './measure';

const SEED = 'tzidx';
const BLOCKS = Number(process.env.TZIDX_BENCH_LOAD_BLOCKS ?? 512);
const CLIENTS = Number(process.env.TZIDX_BENCH_LOAD_CLIENTS ?? 200);
const SECONDS = Number(process.env.TZIDX_BENCH_LOAD_SECONDS ?? 60);
const WARMUP_SECONDS = 3;
/** A request not answered within this is a failure, as a client's timeout would make it. */
const TIMEOUT_MS = 30_000;

/**
 * Issue #18's load check: the demo (a demo-profile sandbox chain ending now, every built-in plugin,
 * the demo metadata, market polling: what `npm start` serves) indexed into Postgres, then CLIENTS
 * keep-alive clients for SECONDS over a seeded mix of tables, series, explorer and other plugin routes,
 * with the instance's default admission limits. Reports requests/s, p50/p99/max, non-2xx answers by
 * status, admission 503s (counted apart: an answer, not a failure), the deepest queue seen, and
 * failures: requests with no answer within TIMEOUT_MS and 5xx answers other than admission's.
 */
export async function loadBench(): Promise<BenchResult[]> {
  const g0 = process.hrtime.bigint();
  const genesisTime = SandboxChain.genesisTimeEndingAt(SEED, 'demo', BLOCKS, new Date());
  const chain = new SandboxChain({ seed: SEED, profile: 'demo', genesisTime });
  chain.bake(BLOCKS);
  const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) }).catch((e: Error) => {
    throw new Error(`load: needs Postgres at ${postgresUrl()}: ${e.message}`);
  });
  try {
    await indexSandbox(t, chain);
    await t.app.container.resolve<MetadataImport>(METADATA_IMPORT)(demoMetadataEntries(chain), 'the sandbox demo');
    await t.app.startPlugins();
    const { mix, dropped } = await buildMix(t, SEED);
    const setup = seconds(g0);
    const sizes = KINDS.map((k) => `${k} ${mix[k].length}`).join(', ');
    const skipped = dropped.length
      ? `; ${dropped.length} left out, not 200: ${dropped.slice(0, 5).join(', ')}${dropped.length > 5 ? ', …' : ''}`
      : '';
    const setupLine = {
      name: `load: generate and index ${BLOCKS} demo blocks with every built-in plugin (${t.app.plugins.length}) into Postgres, build the mix (${sizes} paths${skipped})`,
      seconds: setup,
    };
    const peak = watchQueue(t);
    const tally = await runLoad({
      url: t.url,
      mix,
      clients: CLIENTS,
      warmupSeconds: WARMUP_SECONDS,
      seconds: SECONDS,
      timeoutMs: TIMEOUT_MS,
    }).finally(peak.stop);
    return [
      setupLine,
      summary(tally, t, peak),
      ...KINDS.filter((k) => mix[k].length > 0).map((k) => kindLine(tally, k, mix)),
    ];
  } finally {
    await t.close();
  }
}

/** The deepest admission queue and the most requests in flight, sampled while the load runs. */
function watchQueue(t: TestInstance): { queued: number; inFlight: number; stop(): void } {
  const peak = { queued: 0, inFlight: 0, stop: () => clearInterval(timer) };
  const timer = setInterval(() => {
    peak.queued = Math.max(peak.queued, t.app.api.admission.queued);
    peak.inFlight = Math.max(peak.inFlight, t.app.api.admission.inFlight);
  }, 20);
  return peak;
}

function summary(tally: LoadTally, t: TestInstance, peak: { queued: number; inFlight: number }): BenchResult {
  const all = KINDS.flatMap((k) => tally.latencies[k]);
  const [p50, p99, max] = percentiles(all, [0.5, 0.99, 1]);
  const non2xx = Object.entries(tally.statuses).filter(([s]) => Number(s) >= 300);
  const serverErrors = non2xx.filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0) - tally.admission;
  const noAnswer = Object.values(tally.failed).reduce((n, c) => n + c, 0);
  const failed = noAnswer + serverErrors;
  const cfg = t.app.config;
  return {
    name:
      `load: ${CLIENTS} keep-alive undici clients for ${SECONDS} s, limits ${cfg.apiMaxInflight} in flight / queue ${cfg.apiQueue} / ${cfg.apiQueueTimeoutMs} ms ` +
      `(${all.length.toLocaleString('en-US')} requests, ${(tally.bytes / 1e6).toFixed(0)} MB, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; ` +
      `non-2xx ${non2xx.length ? non2xx.map(([s, c]) => `${s}: ${c}`).join(', ') : 'none'}; admission 503s ${tally.admission}, deepest queue ${peak.queued}, most in flight ${peak.inFlight}; ` +
      `failed ${failed} (no answer ${noAnswer}${noAnswer ? ` ${JSON.stringify(tally.failed)}` : ''}, 5xx ${serverErrors}))`,
    seconds: tally.seconds,
    rate: all.length / tally.seconds,
    unit: 'req/s',
    checks: [{ target: '0 failed requests', met: failed === 0 }],
  };
}

function kindLine(tally: LoadTally, kind: (typeof KINDS)[number], mix: Mix): BenchResult {
  const xs = tally.latencies[kind];
  const [p50, p99, max] = percentiles(xs, [0.5, 0.99, 1]);
  return {
    name: `load: ${kind} (${mix[kind].length} paths; ${xs.length.toLocaleString('en-US')} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms)`,
    seconds: tally.seconds,
    rate: xs.length / tally.seconds,
    unit: 'req/s',
  };
}
