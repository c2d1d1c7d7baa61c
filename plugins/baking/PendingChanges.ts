import { bigOrZero, batchKey, type Entity, type IndexContext, type Row } from '../../framework';
import { BitsetBuilder, setBit } from './Bitset';
import { incomeScores } from './IncomeScores';

const num = (v: unknown): number => Number(v ?? 0);

/**
 * Additions to income rows and bits set in rights rows, written once per row: at the end of each
 * block near the head (each block's changes are journaled on their own), and at the end of the batch
 * while catching up (100 blocks: an attester's rows are written once, not once a block). A baker's
 * income row is bumped several times a block (blocks baked, attestations, receipts' income) and each
 * write recomputes its scores. Batch state: a failed batch or a rollback drops what was not written.
 */
export class PendingChanges {
  private readonly sums = new Map<Entity, Record<string, number | bigint>>();
  private readonly bits = new Map<Entity, Map<string, number[]>>();

  /** Adds to counters and money columns of an income row. */
  add(row: Entity, add: Readonly<Record<string, number | bigint>>): void {
    let sum = this.sums.get(row);
    if (!sum) this.sums.set(row, (sum = {}));
    for (const col in add) {
      const v = add[col];
      const had = sum[col];
      sum[col] = had === undefined ? v : plus(had, v);
    }
  }

  /** Sets a bit of a rights row's bitset column. */
  setBit(row: Entity, column: string, index: number): void {
    let columns = this.bits.get(row);
    if (!columns) this.bits.set(row, (columns = new Map()));
    let set = columns.get(column);
    if (!set) columns.set(column, (set = []));
    set.push(index);
  }

  /**
   * Writes everything pending: sums onto the rows (null counters, rights unknown, stay null) with their scores, bits
   * into the bitsets.
   */
  write(ctx: IndexContext): void {
    const income = ctx.entities('income', 'row_key');
    for (const [row, add] of this.sums) {
      const patch: Row = {};
      for (const col in add) {
        const v = add[col];
        if (typeof v === 'bigint') patch[col] = bigOrZero(row[col]) + v;
        else if (row[col] !== null) patch[col] = num(row[col]) + v;
      }
      income.update(row, Object.assign(patch, incomeScores(row, patch)));
    }
    this.sums.clear();
    const rights = ctx.entities('rights', 'row_key');
    for (const [row, columns] of this.bits) {
      const patch: Row = {};
      for (const [column, set] of columns) {
        if (set.length === 1) patch[column] = setBit(row[column], set[0]);
        else {
          const b = new BitsetBuilder(row[column]);
          for (const i of set) b.set(i);
          patch[column] = b.done();
        }
      }
      rights.update(row, patch);
    }
    this.bits.clear();
  }
}

export const PENDING = batchKey('baking.pending', () => new PendingChanges());

/** A counter (number) or money column (bigint mutez) plus an addition of the same kind. */
function plus(had: number | bigint, add: number | bigint): number | bigint {
  if (typeof had === 'bigint' && typeof add === 'bigint') return had + add;
  if (typeof had === 'number' && typeof add === 'number') return had + add;
  throw new TypeError(`baking: a ${typeof add} added to a ${typeof had} column`);
}
