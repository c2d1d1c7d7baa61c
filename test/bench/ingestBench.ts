import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance } from '../support/TestInstance';
import { BenchResult } from './measure';

const BLOCKS = Number(process.env.TZIDX_BENCH_BLOCKS ?? 1000);

/**
 * Indexes a fixed mainnet-like sandbox workload into Postgres with every built-in plugin, against the
 * floor of the same run: JSON.parse of the same blocks plus COPY of the rows the indexer wrote into
 * empty copies of the same tables. Also reports how long the sandbox took to generate the chain.
 */
export async function ingestBench(): Promise<BenchResult[]> {
  const g0 = process.hrtime.bigint();
  const chain = new SandboxChain({ seed: 'bench', profile: 'mainnet-like' });
  chain.bake(BLOCKS);
  const generation = seconds(g0);
  const texts: string[] = [];
  for (let l = 1; l <= chain.headLevel; l++) texts.push(chain.blockJson(chain.at(l)!));
  const ops = texts.reduce((n, t) => n + countOps(JSON.parse(t)), 0);

  const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
  try {
    const i0 = process.hrtime.bigint();
    await indexSandbox(t, chain);
    const indexing = seconds(i0);

    const p0 = process.hrtime.bigint();
    for (const text of texts) JSON.parse(text);
    const parse = seconds(p0);
    const client = new Client({ connectionString: t.app.config.databaseUrl });
    await client.connect();
    let copy = 0;
    let rows = 0;
    try {
      await client.query('create schema bench_floor');
      for (const table of t.app.catalog.tables.values()) {
        const source = `"${table.schema}"."${table.storage}"`;
        const chunks: Buffer[] = [];
        await pipeline(client.query(copyTo(`copy ${source} to stdout`)), new Writable({ write: (c, _e, cb) => (chunks.push(c), cb()) }));
        if (chunks.length === 0) continue;
        rows += Number((await client.query(`select count(*) as n from ${source}`)).rows[0].n);
        await client.query(`create table bench_floor."${table.storage}" (like ${source} including all)`);
        const c0 = process.hrtime.bigint();
        await pipeline(Readable.from(chunks), client.query(copyFrom(`copy bench_floor."${table.storage}" from stdin`)));
        copy += seconds(c0);
      }
    } finally {
      await client.end();
    }
    const floor = parse + copy;
    return [
      { name: `sandbox: generate ${BLOCKS} mainnet-like blocks (${ops} operations)`, seconds: generation, rate: BLOCKS / generation, unit: 'blocks/s' },
      { name: `ingest floor: JSON.parse of the blocks + COPY of the ${rows} rows written`, seconds: floor, rate: BLOCKS / floor, unit: 'blocks/s' },
      { name: `ingest: index ${BLOCKS} blocks (${Math.round(ops / indexing)} ops/s), all built-in plugins, Postgres`, seconds: indexing, rate: BLOCKS / indexing, unit: 'blocks/s', ratio: indexing / floor },
      { name: 'sandbox generation vs indexing the same blocks', seconds: generation, ratio: generation / indexing, target: 1 },
    ];
  } finally {
    await t.close();
  }
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function countOps(block: { operations: Array<Array<{ contents: unknown[] }>> }): number {
  return block.operations.reduce((n, pass) => n + pass.reduce((m, g) => m + g.contents.length, 0), 0);
}
