import type { BlockRef } from './BlockSource';
import { compareFitness } from './fitness';

function best<T extends BlockRef>(candidates: readonly T[]): T {
  return candidates.reduce((a, b) => {
    const byFitness = compareFitness(a.fitness ?? [], b.fitness ?? []);
    if (byFitness !== 0) return byFitness > 0 ? a : b;
    return a.hash <= b.hash ? a : b;
  });
}

/**
 * Picks one block per level out of blocks that may include several branches: start at the highest
 * level (best fitness, ties broken by the smaller hash), then follow `predecessor` downwards. Where
 * the predecessor is missing from the set (a gap or a foreign branch), the walk restarts with the best
 * block of the next lower level that is present.
 */
export function selectCanonicalChain<T extends BlockRef>(blocks: readonly T[]): Map<number, T> {
  const byLevel = new Map<number, T[]>();
  for (const block of blocks) {
    const list = byLevel.get(block.level);
    if (list) list.push(block);
    else byLevel.set(block.level, [block]);
  }
  const levels = [...byLevel.keys()].sort((a, b) => b - a);
  const chain = new Map<number, T>();
  let expected: { level: number; hash: string } | undefined;
  for (const level of levels) {
    const candidates = byLevel.get(level) ?? [];
    const linked = expected?.level === level ? candidates.find((c) => c.hash === expected?.hash) : undefined;
    const pick = linked ?? best(candidates);
    chain.set(level, pick);
    expected = { level: level - 1, hash: pick.predecessor };
  }
  return chain;
}
