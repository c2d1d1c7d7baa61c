import { expect } from 'chai';
import { Knex } from 'knex';
import {
  batchKey,
  carriedKey,
  column,
  PluginClass,
  PluginContext,
  PluginContribution,
  PluginManifest,
  table,
  TableDef,
} from '../../framework';
import { RpcBlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';

/** Per block: how many blocks the plugin's carried and batch counters had counted, and since which height. */
@table('state_seen', { kind: 'append', height_column: 'height' })
class StateSeen {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'int64' }) carried_since!: number;
  @column({ type: 'int64' }) carried!: number;
  @column({ type: 'int64' }) batch_since!: number;
  @column({ type: 'int64' }) in_batch!: number;
  @column({ type: 'int64' }) ops!: number;
}

/** Derived: how many state_seen rows there are and the highest height, rewritten after each batch. */
@table('seen_total', { kind: 'mutable', height_column: 'max_height', derived_from: ['state_seen'] })
class SeenTotal {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) n!: number;
  @column({ type: 'int64' }) max_height!: number;
}

interface Counter {
  since: number;
  n: number;
}
const CARRIED = carriedKey<Counter | undefined>('test.carried', () => undefined);
const IN_BATCH = batchKey<Counter | undefined>('test.batch', () => undefined);

/** Throws once, after counting, when indexing this level; the heights the recompute hook was called with. */
const probe = { trap: -1, recomputed: [] as number[] };

class StatePlugin {
  static readonly manifest: PluginManifest = { name: 'state-probe', tableClasses: [StateSeen, SeenTotal] };

  setup(ctx: PluginContext): PluginContribution {
    const seen = ctx.catalog.require('state_seen');
    const total = ctx.catalog.require('seen_total');
    return {
      handlers: (r) => {
        r.onBlock((block, ctx) => {
          const count = (c: Counter | undefined): Counter =>
            c ? { since: c.since, n: c.n + 1 } : { since: block.level, n: 1 };
          const carried = count(ctx.state.get(CARRIED));
          const inBatch = count(ctx.state.get(IN_BATCH));
          ctx.state.set(CARRIED, carried);
          ctx.state.set(IN_BATCH, inBatch);
          if (block.level === probe.trap) {
            probe.trap = -1;
            throw new Error('trap');
          }
          ctx.append('state_seen', {
            height: block.level,
            carried_since: carried.since,
            carried: carried.n,
            batch_since: inBatch.since,
            in_batch: inBatch.n,
            ops: block.operations.length,
          });
        });
        r.afterBatch((trx, _from, to) => derive(trx, seen, total, to));
        r.recompute('seen_total', (trx, height) => {
          probe.recomputed.push(height);
          return derive(trx, seen, total, height);
        });
      },
    };
  }
}

/** seen_total from state_seen up to a height (test plugins may write derived tables through the transaction). */
async function derive(trx: Knex.Transaction, seen: TableDef, total: TableDef, upTo: number): Promise<void> {
  const [agg] = await trx
    .withSchema(seen.schema)
    .from(seen.storage)
    .where('height', '<=', upTo)
    .count({ n: '*' })
    .max({ max: 'height' });
  await trx.withSchema(total.schema).from(total.storage).delete();
  await trx
    .withSchema(total.schema)
    .into(total.storage)
    .insert({ row_id: 1, n: Number(agg.n), max_height: agg.max ?? -1 });
}

const plugins = [StatePlugin as unknown as PluginClass];
const BATCH = 4;

async function rows(t: TestInstance, table: string, columns: string): Promise<number[][]> {
  const res = await t.get(`/tables/${table}?columns=${columns}&limit=50000&order=asc`);
  expect(res.status).to.equal(200);
  return (await res.json()) as number[][];
}

/**
 * Every counter counted exactly the blocks committed since it was made (none of a failed batch or of
 * rolled-back blocks), and batch counters never outlived a batch. Returns the rows by height.
 */
async function checkCounters(t: TestInstance): Promise<Map<number, { carriedSince: number; batchSince: number }>> {
  const byHeight = new Map<number, { carriedSince: number; batchSince: number }>();
  for (const [height, carriedSince, carried, batchSince, inBatch] of await rows(
    t,
    'state_seen',
    'height,carried_since,carried,batch_since,in_batch',
  )) {
    expect(carried, `carried counter at ${height}`).to.equal(height - carriedSince + 1);
    expect(inBatch, `batch counter at ${height}`).to.equal(height - batchSince + 1);
    expect(inBatch).to.be.at.most(BATCH);
    byHeight.set(height, { carriedSince, batchSince });
  }
  return byHeight;
}

describe(`indexer: plugin state kept between blocks, and derived tables (${BACKEND})`, function () {
  let t: TestInstance;
  beforeEach(async () => {
    probe.recomputed = [];
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
  });
  afterEach(async () => t?.close());

  it('carried state lives across committed batches; a failed batch drops it, so the retry does not see its blocks', async function () {
    const chain = new SandboxChain({ seed: 'batch-state', profile: 'tiny' });
    chain.bake(20);
    probe.trap = 11;
    await t.app.startIndexer(new RpcBlockSource(new SandboxRpcTransport(chain)), {
      toLevel: chain.headLevel,
      reorgDepth: 2,
      batchBlocks: BATCH,
      retryDelayMs: 10,
    });
    const status = t.app.container.resolve(IndexerStatus);
    expect(status.status).to.equal('failed');
    const failedAfter = status.indexed;
    expect(failedAfter).to.be.below(11);
    await indexSandbox(t, chain, { reorgDepth: 2, batchBlocks: BATCH });
    const seen = await checkCounters(t);
    const first = Math.min(...seen.keys());
    expect([...seen.keys()]).to.deep.equal(canonical(chain).map((b) => b.level));
    // One counter until the failure, carried over every batch before it; a new one from the retry on.
    for (const [height, { carriedSince }] of seen)
      expect(carriedSince, `at ${height}`).to.equal(height <= failedAfter ? first : failedAfter + 1);
    expect(new Set([...seen.values()].map((s) => s.batchSince)).size).to.be.greaterThan(2);
  });

  it('a reorg drops the state and recomputes the derived table, which then equals a clean run', async function () {
    const chain = new SandboxChain({ seed: 'batch-state-reorg', profile: 'tiny' });
    chain.bake(24);
    const options = { reorgDepth: 12, batchBlocks: BATCH };
    await indexSandbox(t, chain, options);
    const forks: number[] = [];
    for (const depth of [2, 5]) {
      forks.push(chain.headLevel - depth);
      chain.reorg(depth);
      chain.bake(3);
      await indexSandbox(t, chain, options);
    }
    expect(probe.recomputed).to.deep.equal(forks);
    const seen = await checkCounters(t);
    const first = Math.min(...seen.keys());
    for (const [height, { carriedSince }] of seen) {
      const madeAt = [first, ...forks.map((f) => f + 1)].filter((h) => h <= height);
      expect(carriedSince, `at ${height}`).to.equal(Math.max(...madeAt));
    }
    const totals = await rows(t, 'seen_total', 'n,max_height');
    expect(totals).to.deep.equal([[seen.size, chain.headLevel]]);
    const fresh = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
    try {
      await indexSandbox(fresh, chain, options);
      expect(await rows(fresh, 'seen_total', 'n,max_height')).to.deep.equal(totals);
    } finally {
      await fresh.close();
    }
  });

  it('a batch ends before the block that would take it past its operation budget, unless that block is its first', async function () {
    const chain = new SandboxChain({ seed: 'batch-ops', profile: 'tiny' });
    chain.bake(60);
    const budget = 30;
    const blocks = canonical(chain);
    expect(Math.max(...blocks.map((b) => b.operations.length)), 'a block alone over the budget').to.be.above(budget);
    await indexSandbox(t, chain, { reorgDepth: 2, batchBlocks: 50, batchOperations: budget });
    const batches = new Map<number, number[]>();
    for (const [height, batchSince, ops] of await rows(t, 'state_seen', 'height,batch_since,ops')) {
      expect(ops, `ops at ${height}`).to.equal(blocks.find((b) => b.level === height)!.operations.length);
      batches.set(batchSince, [...(batches.get(batchSince) ?? []), ops]);
    }
    expect([...batches.values()].flat().length).to.equal(blocks.length);
    for (const [since, ops] of batches) {
      const sum = ops.reduce((a, b) => a + b, 0);
      if (ops.length > 1) expect(sum, `batch from ${since}: ${ops.join('+')}`).to.be.at.most(budget);
    }
    // Batches are sized from the density seen so far: not one block each, not many more than the budget needs.
    const total = blocks.reduce((n, b) => n + b.operations.length, 0);
    expect(batches.size).to.be.below(blocks.length / 1.5);
    expect(batches.size).to.be.at.most(2 * Math.ceil(total / budget) + 2);
  });

  it('a table declared derived_from others needs a recompute hook: the instance does not start without one', async function () {
    class NoHook {
      static readonly manifest: PluginManifest = { name: 'no-hook', tableClasses: [StateSeen, SeenTotal] };
      setup(): PluginContribution {
        return {};
      }
    }
    const err = await startTestInstance({
      catalogYaml: EMPTY_CATALOG,
      plugins: [NoHook as unknown as PluginClass],
    }).then(
      async (other) => {
        await other.close();
        return undefined;
      },
      (e: Error) => e,
    );
    expect(err?.message).to.match(
      /table 'seen_total' is derived from state_seen but plugin 'no-hook' registered no recompute hook/,
    );
  });
});
