import { expect } from 'chai';
import type { SandboxChain } from '../../framework/sandbox';
import type { SseMessage } from './SseReader';

/**
 * Replays a client's block/rollback events the way a client would keep its own copy of the chain,
 * and checks it against the sandbox chain itself (the oracle): levels follow each other without gap
 * from `firstLevel`, each rollback names exactly the blocks it takes back (the ones the client had
 * above the fork), ids only grow, and the end result is the chain's current branch.
 * Returns the number of rollbacks seen.
 */
export function checkBlockSequence(messages: readonly SseMessage[], chain: SandboxChain, firstLevel: number): number {
  const kept: Array<{ level: number; hash: string }> = [];
  let lastId = 0;
  let rollbacks = 0;
  for (const m of messages) {
    if (m.event !== 'block' && m.event !== 'rollback') continue;
    expect(m.id, 'event id').to.be.a('number').greaterThan(lastId);
    lastId = m.id!;
    if (m.event === 'block') {
      const expected = kept.length === 0 ? firstLevel : kept[kept.length - 1].level + 1;
      expect(m.data.level, `block after ${expected - 1}`).to.equal(expected);
      if (kept.length > 0) expect(m.data.predecessor).to.equal(kept[kept.length - 1].hash);
      kept.push({ level: m.data.level as number, hash: m.data.hash as string });
    } else {
      rollbacks++;
      const height = m.data.height as number;
      const above = kept.filter((b) => b.level > height);
      expect(m.data.blocks, 'rolled-back blocks').to.deep.equal(above);
      kept.splice(kept.length - above.length, above.length);
    }
  }
  expect(kept.length, 'blocks received').to.be.greaterThan(0);
  for (const b of kept) expect(b.hash, `hash at ${b.level}`).to.equal(chain.at(b.level)!.hash);
  expect(kept[kept.length - 1].level).to.equal(chain.headLevel);
  return rollbacks;
}
