import { Prng } from './Prng';

export interface CommitteeMember {
  /** Index of the baker in the book's baker list. */
  baker: number;
  firstSlot: number;
  slots: number;
}

/**
 * Baking and attestation rights. They depend only on the seed, the level and the bakers' fixed weights,
 * so any level's rights can be recomputed (for `/helpers/*_rights` and for re-rendering blocks) without
 * replaying the chain. Real rights come from stake snapshots; the sandbox keeps stake weights constant.
 */
export class Rights {
  private readonly cache = new Map<number, CommitteeMember[]>();

  constructor(
    private readonly seed: string,
    private readonly weights: readonly number[],
    readonly committeeSize: number,
  ) {}

  /** Baker index holding round `round` at `level`. */
  bakerAt(level: number, round: number): number {
    return Prng.derive(this.seed, 'baking', level, round).weighted(this.weights);
  }

  /** Committee of `level`, sorted by first slot. */
  committee(level: number): CommitteeMember[] {
    const hit = this.cache.get(level);
    if (hit) return hit;
    const prng = Prng.derive(this.seed, 'committee', level);
    const total = this.weights.reduce((s, w) => s + w, 0);
    // Proportional slot counts, the remainder handed out by weighted draws.
    const counts = this.weights.map((w) => Math.floor((w / total) * this.committeeSize));
    let assigned = counts.reduce((s, c) => s + c, 0);
    while (assigned < this.committeeSize) {
      counts[prng.weighted(this.weights)]++;
      assigned++;
    }
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
    if (this.cache.size > 256) this.cache.clear();
    this.cache.set(level, members);
    return members;
  }

  get threshold(): number {
    return Math.floor((this.committeeSize * 2) / 3) + 1;
  }
}
