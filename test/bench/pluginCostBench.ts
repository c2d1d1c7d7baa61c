import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance } from '../support/TestInstance';
import { BenchResult, median, seconds } from './measure';
import { RecordedNode } from './RecordedNode';

const BLOCKS = Number(process.env.TZIDX_BENCH_PLUGIN_BLOCKS ?? 400);
/** Runs of each side: the 2-core machine varies by ±0.1 in the ratio, and a median of 5 steadies it. */
const RUNS = 5;
/** Comma list: measure only these plugins (default: all of MEASURED). */
const ONLY = process.env.TZIDX_BENCH_PLUGINS?.split(',');
/** A plugin (core-chain) to measure against instead of every plugin: base + plugin vs base alone. */
const BASE = process.env.TZIDX_BENCH_BASE;
/** Plugins whose issues set an ingest budget: their cost is what the rest costs more with them on. */
const MEASURED: Readonly<Record<string, number>> = {
  baking: 1.15,
  'defi-dex': 1.2,
  'defi-farm': 1.2,
  'defi-lending': 1.2,
};

/**
 * The ingest cost of single plugins: the same mainnet-like sandbox blocks indexed (Postgres) with every
 * built-in plugin, and with every plugin but one (and those depending on it). Median of a few runs each,
 * interleaved, so a busy machine weighs on both sides alike. The node's answers are recorded first
 * (RecordedNode): what is timed is the indexer's work, not the sandbox's.
 */
export async function pluginCostBench(): Promise<BenchResult[]> {
  const chain = new SandboxChain({ seed: 'bench-plugins', profile: 'mainnet-like' });
  chain.bake(BLOCKS);
  const all = discoverPlugins([BUILTIN_PLUGIN_DIR]);
  // One untimed run with every plugin records every answer the timed runs ask for.
  const node = new RecordedNode(new SandboxRpcTransport(chain));
  await indexOnce(chain, all, node);
  const out: BenchResult[] = [];
  for (const [name, target] of Object.entries(MEASURED)) {
    if (!all.some((p) => p.manifest.name === name) || (ONLY && !ONLY.includes(name))) continue;
    const [withIt, without] = BASE
      ? [withDependencies(all, [BASE, name]), withDependencies(all, [BASE])]
      : [all, withoutPlugin(all, name)];
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      on.push(await indexOnce(chain, withIt, node));
      off.push(await indexOnce(chain, without, node));
    }
    const ratio = median(on) / median(off);
    if (process.env.TZIDX_BENCH_VERBOSE)
      process.stderr.write(`on ${on.map((s) => s.toFixed(2))} off ${off.map((s) => s.toFixed(2))}\n`);
    const versus = BASE ? `${BASE} + ${name} vs. ${BASE} alone` : 'with every plugin vs. without it';
    out.push({
      name: `ingest cost of ${name}: ${BLOCKS} blocks ${versus}`,
      seconds: median(on),
      rate: BLOCKS / median(on),
      unit: 'blocks/s',
      ratio,
      target,
    });
  }
  return out;
}

/** Every plugin except `name` and the plugins that depend on it, directly or not. */
function withoutPlugin(all: readonly PluginClass[], name: string): PluginClass[] {
  const gone = new Set([name]);
  for (let changed = true; changed;) {
    changed = false;
    for (const p of all) {
      if (!gone.has(p.manifest.name) && (p.manifest.dependsOn ?? []).some((d) => gone.has(d))) {
        gone.add(p.manifest.name);
        changed = true;
      }
    }
  }
  return all.filter((p) => !gone.has(p.manifest.name));
}

/** The plugins named and those they depend on, directly or not. */
function withDependencies(all: readonly PluginClass[], names: readonly string[]): PluginClass[] {
  const kept = new Set(names);
  for (let changed = true; changed;) {
    changed = false;
    for (const p of all) {
      for (const d of kept.has(p.manifest.name) ? (p.manifest.dependsOn ?? []) : []) {
        if (!kept.has(d)) {
          kept.add(d);
          changed = true;
        }
      }
    }
  }
  return all.filter((p) => kept.has(p.manifest.name));
}

async function indexOnce(chain: SandboxChain, plugins: PluginClass[], node: RecordedNode): Promise<number> {
  const t = await startTestInstance({ plugins });
  try {
    // The previous run's writes and dropped database are flushed now, not during this run's timing.
    await t.app.db.writer.raw('checkpoint');
    const t0 = process.hrtime.bigint();
    await indexSandbox(t, chain, {}, node);
    return seconds(t0);
  } finally {
    await t.close();
  }
}
