import { expect } from 'chai';
import type { BlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import type { SandboxChain } from '../../framework/sandbox';
import { seededRandom } from '../../framework/util/seededRandom';
import type { TestInstance } from './TestInstance';

/**
 * Waits until a live indexer has committed the node's head, by hash (the probe plugin's `blocks_seen`
 * table), so a reorg made next always hits indexed blocks; throws with both tips after a minute.
 */
async function untilCaughtUp(t: TestInstance, chain: SandboxChain): Promise<void> {
  const status = t.app.container.resolve(IndexerStatus);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.get('/tables/blocks_seen?columns=hash&orphan=0&order=desc&limit=1');
    const top = ((await res.json()) as string[][])[0]?.[0];
    if (top === chain.head.hash && status.indexed === chain.headLevel) return;
    if (Date.now() > deadline) {
      throw new Error(
        `indexer stuck at ${status.indexed} (${top}, ${status.status}: ${status.lastError ?? 'no error'}), head ${chain.headLevel} (${chain.head.hash})`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Indexes live from `source` while the chain moves `steps` times, seeded: a reorg of depth 1–3 with
 * probability 0.3, else 1–2 new blocks. After each step the indexer must reach the node's head (by
 * hash), so every reorg hits indexed blocks. Then stops the indexer, closes the source and expects one
 * rollback per reorg. Answers the number of reorgs made.
 */
export async function indexWhileMoving(
  t: TestInstance,
  chain: SandboxChain,
  source: BlockSource,
  seed: number,
  steps: number,
): Promise<number> {
  const running = t.app.startIndexer(source, { reorgDepth: 16, batchBlocks: 5, retryDelayMs: 20 });
  const reorgs = await moveChain(t, chain, seed, steps);
  await t.app.stopIndexer();
  await running;
  await source.close();
  const rollbacks = (await t.app.container.resolve(IndexerStatus).rollbacks.get()).values[0].value;
  expect(rollbacks, 'rollbacks').to.equal(reorgs);
  return reorgs;
}

/** The chain moves of `indexWhileMoving`; answers the number of reorgs. */
async function moveChain(t: TestInstance, chain: SandboxChain, seed: number, steps: number): Promise<number> {
  const rnd = seededRandom(seed);
  let reorgs = 0;
  await untilCaughtUp(t, chain);
  for (let step = 0; step < steps; step++) {
    if (rnd() < 0.3) {
      chain.reorg(1 + Math.floor(rnd() * 3));
      reorgs++;
    } else {
      chain.bake(1 + Math.floor(rnd() * 2));
    }
    await untilCaughtUp(t, chain);
  }
  return reorgs;
}
