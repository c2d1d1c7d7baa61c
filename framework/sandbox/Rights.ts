import type { ChainCalendar } from './ChainCalendar';
import { Prng } from './Prng';
import type { StakeDistribution, StakeSnapshots } from './StakeSnapshots';

export interface CommitteeMember {
  /** Index of the baker in the book's baker list. */
  baker: number;
  firstSlot: number;
  slots: number;
}

/**
 * Baking and attestation rights, drawn from the stake distribution selected for the level's cycle (see
 * StakeSnapshots). A level's rights depend only on the seed, the level and that distribution, so they
 * can be recomputed at any time (for `/helpers/*_rights` and for re-rendering blocks) without replaying
 * the chain. Each baker gets `⌊power × committee / total⌋` slots, the remainder goes to draws weighted
 * by power; round r of a level goes to a baker drawn with probability proportional to its power.
 */
export class Rights {
  /** Committees by level, with the distribution they were drawn from (a reorg may re-select it). */
  private readonly cache = new Map<number, { distribution: StakeDistribution; members: CommitteeMember[] }>();

  constructor(
    private readonly seed: string,
    private readonly snapshots: StakeSnapshots,
    private readonly calendar: ChainCalendar,
    readonly committeeSize: number,
  ) {}

  /** The distribution rights of `level` come from; throws when it is not selected yet (a caller bug). */
  distributionAt(level: number): StakeDistribution {
    const cycle = this.calendar.cycleOf(level);
    const d = this.snapshots.forCycle(cycle);
    if (!d) throw new Error(`sandbox: no stake distribution selected for cycle ${cycle} (level ${level})`);
    return d;
  }

  /** Baker index holding round `round` at `level`. */
  bakerAt(level: number, round: number): number {
    return Prng.derive(this.seed, 'baking', level, round).weighted(this.distributionAt(level).weights);
  }

  /** Committee of `level`, sorted by first slot. */
  committee(level: number): CommitteeMember[] {
    const distribution = this.distributionAt(level);
    const hit = this.cache.get(level);
    if (hit?.distribution === distribution) return hit.members;
    const prng = Prng.derive(this.seed, 'committee', level);
    const size = BigInt(this.committeeSize);
    const counts = distribution.weights.map(() => 0);
    for (const s of distribution.shares) counts[s.baker] = Number((s.power * size) / distribution.total);
    const assigned = counts.reduce((s, c) => s + c, 0);
    prng.weightedMany(distribution.weights, Math.max(0, this.committeeSize - assigned), (baker) => counts[baker]++);
    const slots: number[] = [];
    counts.forEach((c, baker) => {
      for (let i = 0; i < c; i++) slots.push(baker);
    });
    prng.shuffle(slots);
    const first = new Map<number, number>();
    slots.forEach((baker, slot) => {
      if (!first.has(baker)) first.set(baker, slot);
    });
    const members = [...first.entries()]
      .map(([baker, firstSlot]) => ({ baker, firstSlot, slots: counts[baker] }))
      .sort((a, b) => a.firstSlot - b.firstSlot);
    // Two cycles of committees: a whole-cycle rights RPC and the blocks being built share them.
    if (this.cache.size > Math.min(2 * this.calendar.blocksPerCycle + 64, 4096)) this.cache.clear();
    this.cache.set(level, { distribution, members });
    return members;
  }

  get threshold(): number {
    return Math.floor((this.committeeSize * 2) / 3) + 1;
  }
}
