import type { AccountBook } from '../AccountBook';
import { int, pair, str, type Micheline } from '../Michelson';
import { bigMapGet, type LazyStorageDiff } from './LazyStorageDiff';

/** Per-account amounts in a big map keyed by `address` or `(address, id)`: farm stakes, lending shares. */
export class PositionBook {
  constructor(
    private readonly book: AccountBook,
    private readonly mapId: () => number,
    private readonly withId: boolean,
  ) {}

  key(holder: string, id: number): Micheline {
    return this.withId ? pair(str(holder), int(id)) : str(holder);
  }

  get(holder: string, id = 0): bigint {
    const v = bigMapGet(this.book, this.mapId(), this.key(holder, id));
    return v && !Array.isArray(v) && 'int' in v ? BigInt(v.int) : 0n;
  }

  /** Adds `delta`; returns 1 when a new entry was created (storage growth). */
  add(diff: LazyStorageDiff, holder: string, delta: bigint, id = 0): number {
    const before = this.get(holder, id);
    const after = before + delta;
    if (after < 0n) throw new Error(`sandbox: position of ${holder} would become negative`);
    diff.update(this.mapId(), this.key(holder, id), after === 0n ? undefined : int(after));
    return before === 0n && after > 0n ? 1 : 0;
  }
}
