import { expect } from 'chai';
import { BlockNormalizer, NormalizedBlock, RpcBlockSource } from '../../framework/chain';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import { HandlerRegistry } from '../../framework/indexer/IndexContext';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { PluginClass } from '../../framework/plugins/Plugin';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const CATALOG = `
version: 1
plugins:
  probe:
    tables:
      blocks_seen:
        kind: append
        height_column: height
        orphan_column: orphan
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: int64 }
          - { name: hash, type: hash(block) }
          - { name: n_ops, type: int64 }
          - { name: orphan, type: bool }
      transfers:
        kind: append
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: int64 }
          - { name: op_n, type: int64 }
          - { name: amount, type: money }
          - { name: sender, type: address, nullable: true }
      op_types:
        kind: mutable
        height_column: last_height
        columns:
          - { name: row_id, type: uint64 }
          - { name: type, type: string }
          - { name: count, type: int64 }
          - { name: last_height, type: int64 }
        indexes: [{ columns: [type], unique: true }]
`;

/** Fails once at a chosen level, to prove a failed batch leaves nothing behind. */
const trap = { level: -1 };

class ProbePlugin {
  static readonly manifest = { name: 'probe' };
  handlers(r: HandlerRegistry): void {
    r.onBlock((block, ctx) => {
      if (block.level === trap.level) {
        trap.level = -1;
        throw new Error('trap');
      }
      ctx.append('blocks_seen', { height: block.level, hash: block.hash, n_ops: block.operations.length });
    });
    r.onOperation({ types: ['transaction'] }, (op, ctx) => {
      ctx.append('transfers', { height: ctx.block.level, op_n: op.opN, amount: op.volume, sender: op.sender ?? null });
    });
    r.onBlock(async (block, ctx) => {
      const store = ctx.entities('op_types', 'type');
      const counts = countTypes([block]);
      await store.preload(counts.keys());
      for (const [type, n] of counts) {
        const e = await store.get(type);
        if (e) store.update(e, { count: (e.count as bigint) + BigInt(n), last_height: block.level });
        else store.insert({ type, count: BigInt(n), last_height: block.level });
      }
    });
  }
}

function countTypes(blocks: NormalizedBlock[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const b of blocks) for (const op of b.operations) m.set(op.type, (m.get(op.type) ?? 0) + 1);
  return m;
}

/** The main chain as the sandbox holds it now, normalized: the oracle for every table. */
function canonical(chain: SandboxChain): NormalizedBlock[] {
  const n = new BlockNormalizer();
  const out: NormalizedBlock[] = [];
  for (let l = 0; l <= chain.headLevel; l++) out.push(n.normalize(JSON.parse(chain.blockJson(chain.at(l)!)) as RawBlock));
  return out;
}

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
  const expectedTransfers = blocks.flatMap((b) => b.operations.filter((o) => o.type === 'transaction' && o.status === 'applied').map((o) => [b.level, o.opN]));
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
    t = await startTestInstance({ catalogYaml: CATALOG, plugins });
  });
  afterEach(async () => t?.close());

  it('indexes a chain in backfill batches and then block by block, every table matching the chain', async function () {
    const chain = new SandboxChain({ seed: 'pipeline', profile: 'tiny' });
    chain.bake(60);
    const status = await indexSandbox(t, chain, { reorgDepth: 10, batchBlocks: 7 });
    expect(status.indexed).to.equal(chain.headLevel);
    expect(status.status).to.equal('synced');
    await expectMatches(t, chain);
    const res = await t.get('/explorer/status');
    expect(await res.json()).to.deep.include({ mode: 'sync', status: 'synced', blocks: chain.headLevel, indexed: chain.headLevel, progress: 1 });
    expect(await (await t.get('/metrics')).text()).to.match(/tzidx_indexed_height \d+/);
  });

  it('rolls back reorgs generically: tables equal a run over the final chain, orphans stay flagged', async function () {
    const chain = new SandboxChain({ seed: 'reorgs', profile: 'tiny' });
    chain.bake(40);
    await indexSandbox(t, chain, { reorgDepth: 16, batchBlocks: 5 });
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
    const fresh = await startTestInstance({ catalogYaml: CATALOG, plugins });
    try {
      await indexSandbox(fresh, chain, { reorgDepth: 16, batchBlocks: 5 });
      for (const [table, cols] of [['transfers', 'height,op_n,amount,sender'], ['op_types', 'type,count,last_height']]) {
        expect((await rows(t, table, cols)).sort(byCells)).to.deep.equal((await rows(fresh, table, cols)).sort(byCells));
      }
    } finally {
      await fresh.close();
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
