import type { Entity, EntityStore, Row } from '../../framework';
import { incomeScores } from './IncomeScores';

const num = (v: unknown): number => Number(v ?? 0);
const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);

/**
 * Additions to income rows, summed over a block and written once per row: a baker's row is bumped
 * several times a block (blocks baked, attestations, receipts' income), and each update copies the row
 * and recomputes its scores.
 */
export class IncomeBumps {
  private readonly pending = new Map<Entity, Record<string, number | bigint>>();

  add(row: Entity, add: Readonly<Record<string, number | bigint>>): void {
    let sum = this.pending.get(row);
    if (!sum) this.pending.set(row, (sum = {}));
    for (const col in add) {
      const v = add[col];
      const had = sum[col];
      sum[col] = had === undefined ? v : typeof v === 'bigint' ? (had as bigint) + v : (had as number) + v;
    }
  }

  /** Adds the sums to counters and money columns; null counters (rights unknown) stay null. */
  apply(store: EntityStore): void {
    for (const [row, add] of this.pending) {
      const patch: Row = {};
      for (const col in add) {
        const v = add[col];
        if (typeof v === 'bigint') patch[col] = big(row[col]) + v;
        else if (row[col] !== null) patch[col] = num(row[col]) + v;
      }
      store.update(row, Object.assign(patch, incomeScores(row, patch)));
    }
    this.pending.clear();
  }
}
