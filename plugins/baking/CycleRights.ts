import { asBits, hasBit } from './Bitset';

/** Who holds which rights at each position of one cycle: round-0 bakers and attesters with their slots. */
export class CycleRights {
  readonly bakerAt = new Map<number, string>();
  readonly attestersAt = new Map<number, Set<string>>();

  constructor(
    readonly cycle: number,
    readonly start: number,
  ) {}

  private last = -1;

  /** Levels in the cycle: every level has a round-0 baker, so the last one named ends the cycle. */
  get length(): number {
    return this.last + 1;
  }

  /** Every baker with a right in the cycle (as far as the rights are known). */
  holders(): Set<string> {
    const out = new Set(this.bakerAt.values());
    for (const set of this.attestersAt.values()) for (const b of set) out.add(b);
    return out;
  }

  addBaking(position: number, baker: string): void {
    this.bakerAt.set(position, baker);
    if (position > this.last) this.last = position;
  }

  addAttester(position: number, baker: string): void {
    let set = this.attestersAt.get(position);
    if (!set) this.attestersAt.set(position, (set = new Set()));
    set.add(baker);
  }

  /** Rebuilt from the cycle's rights rows (after a restart or a rollback). */
  static fromRows(cycle: number, start: number, rows: readonly { address: unknown; baking_rights: unknown; endorsing_rights: unknown }[]): CycleRights {
    const out = new CycleRights(cycle, start);
    for (const row of rows) {
      const address = String(row.address);
      const baking = asBits(row.baking_rights);
      const attesting = asBits(row.endorsing_rights);
      const bits = Math.max(baking?.length ?? 0, attesting?.length ?? 0) * 8;
      for (let i = 0; i < bits; i++) {
        if (hasBit(baking, i)) out.addBaking(i, address);
        if (hasBit(attesting, i)) out.addAttester(i, address);
      }
    }
    return out;
  }
}
