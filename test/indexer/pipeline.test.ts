import { expect } from 'chai';
import type { HandlerRegistry } from '../../framework';
import { BlockNormalizer, RpcBlockSource } from '../../framework/chain';
import { BATCH_PHASES, IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { PluginClass } from '../../framework/plugins/Plugin';
import { META_SCHEMA } from '../../framework/storage/SchemaMigrator';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';
import { countTypes, ProbePlugin, trap } from './plugins/probe/plugin';

async function rows(t: TestInstance, table: string, columns: string): Promise<unknown[][]> {
  const res = await t.get(`/tables/${table}?columns=${columns}&limit=50000`);
  expect(res.status).to.equal(200);
  return (await res.json()) as unknown[][];
}

async function expectMatches(t: TestInstance, chain: SandboxChain): Promise<void> {
  const blocks = canonical(chain);
  const seen = await rows(t, 'blocks_seen', 'height,hash,n_ops&orphan=0&order=asc');
  expect(seen).to.deep.equal(blocks.map((b) => [b.level, b.hash, b.operations.length]));
  const transfers = await rows(t, 'transfers', 'height,op_n');
  const expectedTransfers = blocks.flatMap((b) =>
    b.operations.filter((o) => o.type === 'transaction' && o.status === 'applied').map((o) => [b.level, o.opN]),
  );
  expect(transfers.sort(byCells)).to.deep.equal(expectedTransfers.sort(byCells));
  const types = await rows(t, 'op_types', 'type,count');
  expect(new Map(types as Array<[string, number]>)).to.deep.equal(countTypes(blocks));
}

function byCells(a: unknown[], b: unknown[]): number {
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;
}

const plugins = [ProbePlugin as unknown as PluginClass];

describe(`indexing pipeline (${BACKEND})`, function () {
  let t: TestInstance;
  beforeEach(async () => {
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
  });
  afterEach(async () => t?.close());

  it('indexes a chain in backfill batches and then block by block, every table matching the chain', async function () {
    const chain = new SandboxChain({ seed: 'pipeline', profile: 'tiny' });
    chain.bake(60);
    const status = await indexSandbox(t, chain, { reorgDepth: 10, batchBlocks: 7 });
    expect(status.indexed).to.equal(chain.headLevel);
    expect(status.status).to.equal('synced');
    await expectMatches(t, chain);
    // Handlers asked the node about the very block they were indexing.
    const asked = await rows(t, 'blocks_seen', 'hash,node_hash&orphan=0');
    expect(asked.filter(([hash, nodeHash]) => hash !== nodeHash)).to.deep.equal([]);
    const res = await t.get('/explorer/status');
    expect(await res.json()).to.deep.include({
      mode: 'sync',
      status: 'synced',
      blocks: chain.headLevel,
      indexed: chain.headLevel,
      progress: 1,
    });
    const metrics = await (await t.get('/metrics')).text();
    expect(metrics).to.match(new RegExp(`^tzidx_indexed_height ${chain.headLevel}$`, 'm'));
    // Where the batches' time went, by phase (the after-commit hooks are the series rollups).
    for (const phase of BATCH_PHASES) {
      expect(
        Number(new RegExp(`^tzidx_batch_phase_seconds_total\\{phase="${phase}"\\} (\\S+)$`, 'm').exec(metrics)?.[1]),
        phase,
      ).to.be.greaterThan(0);
    }
    // The process's own series: what an operator watches the indexer's memory by.
    for (const series of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(metrics)?.[1]), series).to.be.greaterThan(0);
    }
  });

  it('reads the next backfill batch while one commits, and indexes the same rows as without reading ahead', async function () {
    const chain = new SandboxChain({ seed: 'pipeline', profile: 'tiny' });
    chain.bake(45);
    const status = t.app.container.resolve(IndexerStatus);
    // The last committed height at the moment each block was asked for.
    const committedWhenAsked = new Map<number, number>();
    const source = new (class extends RpcBlockSource {
      override blockAt(level: number, signal?: AbortSignal) {
        committedWhenAsked.set(level, status.indexed);
        return super.blockAt(level, signal);
      }
    })(new SandboxRpcTransport(chain));
    try {
      await t.app.startIndexer(source, { retryDelayMs: 10, toLevel: chain.headLevel, reorgDepth: 10, batchBlocks: 10 });
    } finally {
      await source.close();
    }
    expect(status.status).to.equal('synced');
    // Batches 0–9, 10–19, 20–29, 30–35 (backfill), then 36–45 (journaled, what the node has): every
    // batch after the first was asked for while the one before it was still committing.
    expect([...committedWhenAsked.keys()].sort((x, y) => x - y)).to.deep.equal(
      Array.from({ length: chain.headLevel + 1 }, (_, l) => l),
    );
    for (const [level, committed] of committedWhenAsked)
      if (level > 0) expect(committed, `block ${level}`).to.be.below(level - 1);
    await expectMatches(t, chain);
  });

  it('normalizes a batch read ahead only once the batch before it has run its handlers', async function () {
    const log: string[] = [];
    const batches: Array<[number, number]> = [];
    class BlockLog {
      static readonly manifest = { name: 'block-log' };
      setup() {
        return {
          handlers: (r: HandlerRegistry) => {
            r.onBlock((block) => void log.push(`handled ${block.level}`));
            r.afterBatch((_trx, from, to) => void batches.push([from, to]));
          },
        };
      }
    }
    const chain = new SandboxChain({ seed: 'pipeline', profile: 'tiny' });
    chain.bake(45);
    const normalize = BlockNormalizer.prototype.normalize;
    BlockNormalizer.prototype.normalize = function (this: BlockNormalizer, raw: unknown) {
      const block = normalize.call(this, raw);
      log.push(`normalized ${block.level}`);
      return block;
    };
    const logged = await startTestInstance({
      catalogYaml: EMPTY_CATALOG,
      plugins: [...plugins, BlockLog as unknown as PluginClass],
    });
    try {
      await indexSandbox(logged, chain, { reorgDepth: 10, batchBlocks: 10 });
      await expectMatches(logged, chain);
    } finally {
      BlockNormalizer.prototype.normalize = normalize;
      await logged.close();
    }
    // Every batch after the first was read while the one before it committed (test above); its
    // blocks were normalized after that batch's last block was handled, not while it was.
    expect(batches.length).to.be.greaterThan(3);
    for (let b = 1; b < batches.length; b++) {
      const handled = log.indexOf(`handled ${batches[b - 1][1]}`);
      expect(handled, `batch ${batches[b - 1]}`).to.be.at.least(0);
      for (let level = batches[b][0]; level <= batches[b][1]; level++)
        expect(log.indexOf(`normalized ${level}`), `block ${level}`).to.be.greaterThan(handled);
    }
  });

  it('rolls back reorgs generically: tables equal a run over the final chain, orphans stay flagged', async function () {
    const chain = new SandboxChain({ seed: 'reorgs', profile: 'tiny' });
    chain.bake(40);
    await indexSandbox(t, chain, { reorgDepth: 16, batchBlocks: 5 });
    // A block's journal line keeps only what it changed of a row: an op type's count and last height.
    const images = await t.app.db
      .writer(`${META_SCHEMA}.journal`)
      .where('table_code', 'op_types')
      .whereNotNull('pre_image')
      .select('pre_image');
    expect(images).to.not.be.empty;
    for (const { pre_image } of images)
      expect(Object.keys(typeof pre_image === 'string' ? JSON.parse(pre_image) : pre_image).sort()).to.deep.equal([
        'count',
        'last_height',
      ]);
    const orphaned: string[] = [];
    for (const depth of [1, 3, 5]) {
      for (let l = chain.headLevel - depth + 1; l <= chain.headLevel; l++) orphaned.push(chain.at(l)!.hash);
      chain.reorg(depth);
      chain.bake(2);
      await indexSandbox(t, chain, { reorgDepth: 16, batchBlocks: 5 });
    }
    await expectMatches(t, chain);
    const flagged = (await rows(t, 'blocks_seen', 'hash&orphan=1')).map((r) => r[0]);
    expect(flagged.sort()).to.deep.equal([...new Set(orphaned)].sort());
    const rollbacks = await t.app.container.resolve(IndexerStatus).rollbacks.get();
    expect(rollbacks.values[0].value).to.equal(3);
    const fresh = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
    try {
      await indexSandbox(fresh, chain, { reorgDepth: 16, batchBlocks: 5 });
      for (const [table, cols] of [
        ['transfers', 'height,op_n,amount,sender'],
        ['op_types', 'type,count,last_height'],
      ]) {
        expect((await rows(t, table, cols)).sort(byCells)).to.deep.equal(
          (await rows(fresh, table, cols)).sort(byCells),
        );
      }
    } finally {
      await fresh.close();
    }
  });

  it('near the head a batch takes the blocks the node has, up to batch_blocks, journaled block by block; a reorg inside one rolls back to the block', async function () {
    const batches: Array<[number, number]> = [];
    class BatchLog {
      static readonly manifest = { name: 'batch-log' };
      setup() {
        return { handlers: (r: HandlerRegistry) => r.afterBatch((_trx, from, to) => void batches.push([from, to])) };
      }
    }
    const chain = new SandboxChain({ seed: 'live-batches', profile: 'tiny' });
    chain.bake(30);
    // Every block is within the reorg window (64): all batches are journaled ones.
    const small = await startTestInstance({
      catalogYaml: EMPTY_CATALOG,
      plugins: [...plugins, BatchLog as unknown as PluginClass],
      config: { batchBlocks: 4 },
    });
    try {
      await indexSandbox(small, chain);
      const first = batches[0][0];
      expect(batches.map(([from, to]) => to - from + 1).every((n) => n <= 4)).to.equal(true);
      expect(batches.length).to.equal(Math.ceil((chain.headLevel - first + 1) / 4));
      batches.forEach(([from], i) => expect(from).to.equal(first + 4 * i));
      // One journal line per block that changed the op counts (every block), not one per batch.
      const heights = await small.app.db
        .writer(`${META_SCHEMA}.journal`)
        .where('table_code', 'op_types')
        .distinct('height');
      expect(heights.length).to.be.greaterThan(chain.headLevel - first - 2);
      // The fork point falls inside the last batch of several blocks.
      const [lastFrom, lastTo] = batches[batches.length - 1];
      const depth = lastTo - lastFrom;
      expect(depth).to.be.greaterThan(0);
      chain.reorg(depth);
      chain.bake(3);
      await indexSandbox(small, chain);
      await expectMatches(small, chain);
      // A fresh instance with the default batch size: the node is ahead by the whole chain, one batch.
      batches.length = 0;
      const whole = await startTestInstance({
        catalogYaml: EMPTY_CATALOG,
        plugins: [...plugins, BatchLog as unknown as PluginClass],
      });
      try {
        await indexSandbox(whole, chain);
        expect(batches).to.deep.equal([[first, chain.headLevel]]);
        for (const [table, cols] of [
          ['transfers', 'height,op_n,amount,sender'],
          ['op_types', 'type,count,last_height'],
        ]) {
          expect((await rows(small, table, cols)).sort(byCells)).to.deep.equal(
            (await rows(whole, table, cols)).sort(byCells),
          );
        }
      } finally {
        await whole.close();
      }
    } finally {
      await small.close();
    }
  });

  it('a failing handler rolls its whole batch back; a restart resumes after the last committed block', async function () {
    const chain = new SandboxChain({ seed: 'crash', profile: 'tiny' });
    chain.bake(30);
    trap.level = 17;
    await t.app.startIndexer(new RpcBlockSource(new SandboxRpcTransport(chain)), {
      toLevel: chain.headLevel,
      reorgDepth: 8,
      batchBlocks: 4,
      retryDelayMs: 10,
    });
    const status = t.app.container.resolve(IndexerStatus);
    expect(status.status).to.equal('failed');
    expect(status.indexed).to.be.below(17);
    const heights = (await rows(t, 'blocks_seen', 'height')).map((r) => r[0] as number);
    expect(Math.max(...heights)).to.equal(status.indexed);
    await indexSandbox(t, chain, { reorgDepth: 8, batchBlocks: 4 });
    await expectMatches(t, chain);
  });
});
