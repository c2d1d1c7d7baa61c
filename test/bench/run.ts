import 'reflect-metadata';
import { limitHeapGrowth } from '../../framework/cli/heapGrowth';
import { postgresUrl } from '../support/TestDatabase';
import { explorerBench } from './explorerBench';
import { BenchResult, verdicts } from './measure';
import { ingestBench } from './ingestBench';
import { loadBench } from './loadBench';
import { pluginCostBench } from './pluginCostBench';
import { rssBench } from './rssBench';
import { seriesBench } from './seriesBench';
import { streamBench } from './streamBench';
import { tablesBench } from './tablesBench';

/** `npm run bench`: every part measures itself against a floor taken in the same run. */
const PARTS: Record<string, () => Promise<BenchResult[]>> = {
  tables: tablesBench,
  ingest: ingestBench,
  plugins: pluginCostBench,
  series: seriesBench,
  explorer: explorerBench,
  stream: streamBench,
  load: loadBench,
  rss: rssBench,
};

async function main(): Promise<void> {
  // The in-process parts (ingest, API) run with the old-space growth `tzidx` itself runs with.
  limitHeapGrowth();
  if (!postgresUrl()) {
    process.env.TZIDX_TEST_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  }
  const only = process.argv.slice(2);
  for (const [name, part] of Object.entries(PARTS)) {
    if (only.length > 0 && !only.includes(name)) continue;
    for (const r of await part()) {
      const rate = r.rate !== undefined ? `  ${Math.round(r.rate).toLocaleString('en-US')} ${r.unit}` : '';
      const ratio = r.ratio !== undefined ? `  ratio ${r.ratio.toFixed(2)}x` : '';
      const amount = r.figure
        ? `${Math.round(r.figure.value).toLocaleString('en-US')} ${r.figure.unit}`
        : `${r.seconds.toFixed(3)} s`;
      process.stdout.write(`${r.name}: ${amount}${rate}${ratio}${verdicts(r)}\n`);
    }
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exitCode = 1;
});
