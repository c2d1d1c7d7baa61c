import { asBits, BitsetBuilder, hasBit } from './Bitset';

/**
 * Who holds which rights at each position of one cycle: round-0 bakers, and each attester's positions
 * as a bitset. Per baker, not per position: a mainnet cycle has 30,720 levels with a few hundred
 * attesters each, millions of (level, baker) pairs as sets of addresses, where a few hundred bitsets
 * take about a megabyte.
 */
export class CycleRights {
  readonly bakerAt = new Map<number, string>();
  private readonly attesting = new Map<string, BitsetBuilder>();

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
    return new Set([...this.bakerAt.values(), ...this.attesting.keys()]);
  }

  /** The bakers with attestation rights at a position, in the order they were first named. */
  attestersAt(position: number): string[] {
    const out: string[] = [];
    for (const [baker, bits] of this.attesting) if (bits.has(position)) out.push(baker);
    return out;
  }

  addBaking(position: number, baker: string): void {
    this.bakerAt.set(position, baker);
    if (position > this.last) this.last = position;
  }

  addAttester(position: number, baker: string): void {
    let bits = this.attesting.get(baker);
    if (!bits) this.attesting.set(baker, (bits = new BitsetBuilder()));
    bits.set(position);
  }

  /** Rebuilt from the cycle's rights rows (after a restart or a rollback). */
  static fromRows(
    cycle: number,
    start: number,
    rows: readonly { address: unknown; baking_rights: unknown; endorsing_rights: unknown }[],
  ): CycleRights {
    const out = new CycleRights(cycle, start);
    for (const row of rows) {
      const address = String(row.address);
      const baking = asBits(row.baking_rights);
      for (let i = 0; i < (baking?.length ?? 0) * 8; i++) if (hasBit(baking, i)) out.addBaking(i, address);
      const attesting = asBits(row.endorsing_rights);
      if (attesting?.some((b) => b !== 0)) out.attesting.set(address, new BitsetBuilder(attesting));
    }
    return out;
  }
}
