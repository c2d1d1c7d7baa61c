import type { IndexContext, Row } from '../../framework';
import { asBits } from './Bitset';

/**
 * Who committed to a seed nonce at which level, for the cycles whose revelations may still come (a
 * nonce is revealed in the cycle after its block). A `seed_nonce_revelation` names only the level, so
 * the committer is looked up here, not per operation in the database. A cycle not seen from its
 * start (after a restart or rollback) is read once from its rights rows' `seeds_required` bits,
 * with this batch's pending rows over the committed ones.
 */
export class SeedCommitments {
  private readonly byCycle = new Map<number, Map<number, string>>();

  forget(): void {
    this.byCycle.clear();
  }

  /** The committers of a cycle's levels (level → baker). */
  async of(ctx: IndexContext, cycle: number): Promise<Map<number, string>> {
    const hit = this.byCycle.get(cycle);
    if (hit) return hit;
    const rows = new Map<string, Row>();
    for (const r of await ctx
      .read('rights')
      .where('cycle', cycle)
      .whereNotNull('seeds_required')
      .select('row_key', 'address', 'height', 'seeds_required'))
      rows.set(String(r.row_key), r);
    for (const e of ctx.entities('rights', 'row_key').pending())
      if (Number(e.cycle) === cycle) rows.set(String(e.row_key), e);
    const levels = new Map<number, string>();
    for (const r of rows.values()) {
      const bits = asBits(r.seeds_required);
      for (let i = 0; bits && i < bits.length * 8; i++)
        if (bits[i >> 3] & (1 << (i & 7))) levels.set(Number(r.height) + i, String(r.address));
    }
    this.byCycle.set(cycle, levels);
    for (const c of this.byCycle.keys()) if (c < cycle - 1) this.byCycle.delete(c);
    return levels;
  }
}
