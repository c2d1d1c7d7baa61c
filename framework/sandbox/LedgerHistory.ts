import type { Journal } from './Journal';

/** Level of the value a cell held before its first recorded change: it is valid from genesis on. */
const ORIGIN = -1;

type Owner = object;

function readCell(owner: Owner, key: unknown): unknown {
  return owner instanceof Map ? owner.get(key) : (owner as Record<PropertyKey, unknown>)[key as PropertyKey];
}

/** The values one cell (an object field or a Map entry) took, by the level of the block that set them. */
class ChangeLog {
  private readonly levels: number[] = [ORIGIN];
  private readonly values: unknown[];

  constructor(
    readonly owner: Owner,
    readonly key: unknown,
  ) {
    this.values = [readCell(owner, key)];
  }

  /** Records the cell's current value as of `level`; false when it did not change. */
  append(level: number): boolean {
    const value = readCell(this.owner, this.key);
    if (value === this.values[this.values.length - 1]) return false;
    this.levels.push(level);
    this.values.push(value);
    return true;
  }

  /** Forgets the value set at `level` (the block is rolled back). */
  drop(level: number): void {
    if (this.levels[this.levels.length - 1] === level) {
      this.levels.pop();
      this.values.pop();
    }
  }

  /** Value at the end of block `level`: the last change at or before it. */
  at(level: number): unknown {
    let lo = 0;
    let hi = this.levels.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.levels[mid] <= level) lo = mid;
      else hi = mid - 1;
    }
    return this.values[lo];
  }
}

/**
 * Per-cell change logs of the ledger, so context RPCs can answer for any block of the current branch
 * without a copy of the state per block. The ledger calls `touch` before each mutation; at the end of a
 * block every touched cell whose value changed gets one `(level, value)` entry, and an undo entry in the
 * journal removes them again if the block is rolled back (reorg). Cells never changed since genesis
 * have no log and read their live value. Memory grows with the number of changes, not with the state.
 */
export class LedgerHistory {
  private level: number | undefined;
  private readonly logs = new WeakMap<Owner, Map<unknown, ChangeLog>>();
  private readonly dirty = new Set<ChangeLog>();

  constructor(private readonly journal: Journal) {}

  begin(level: number): void {
    this.level = level;
    this.dirty.clear();
  }

  /** Call before changing `owner[key]` (or the Map entry `owner.get(key)`); outside a block it is a no-op. */
  touch(owner: Owner, key: unknown): void {
    if (this.level === undefined) return;
    let cells = this.logs.get(owner);
    if (!cells) {
      cells = new Map();
      this.logs.set(owner, cells);
    }
    let log = cells.get(key);
    if (!log) {
      log = new ChangeLog(owner, key);
      cells.set(key, log);
    }
    this.dirty.add(log);
  }

  /** Ends the block: records the final value of every touched cell at its level. */
  commit(): void {
    const level = this.level;
    if (level === undefined) throw new Error('LedgerHistory: no open block');
    const changed: ChangeLog[] = [];
    for (const log of this.dirty) if (log.append(level)) changed.push(log);
    this.abort();
    if (changed.length)
      this.journal.record(() => {
        for (const log of changed) log.drop(level);
      });
  }

  /** The block is abandoned: its live changes are undone by the journal, nothing was logged. */
  abort(): void {
    this.level = undefined;
    this.dirty.clear();
  }

  /** `owner[key]` (or `owner.get(key)`) at the end of block `level`; the live value when `level` is undefined. */
  read(owner: Owner, key: unknown, level: number | undefined): unknown {
    const log = level === undefined ? undefined : this.logs.get(owner)?.get(key);
    return log ? log.at(level as number) : readCell(owner, key);
  }

  /** A copy of `owner` with each logged field as of `level` (the object itself when live). */
  snapshot<T extends object>(owner: T, level: number | undefined): T {
    const cells = level === undefined ? undefined : this.logs.get(owner);
    if (!cells) return owner;
    const copy = { ...owner } as Record<PropertyKey, unknown>;
    for (const [key, log] of cells) copy[key as PropertyKey] = log.at(level as number);
    return copy as T;
  }

  /** Entries of a Map as of `level`: logged keys in first-change order after keys never changed. */
  entries<K, V>(map: Map<K, V>, level: number | undefined): [K, V][] {
    const cells = level === undefined ? undefined : this.logs.get(map);
    if (!cells) return [...map.entries()];
    const out: [K, V][] = [];
    for (const [key, value] of map) if (!cells.has(key)) out.push([key, value]);
    for (const [key, log] of cells) {
      const value = log.at(level as number);
      if (value !== undefined) out.push([key as K, value as V]);
    }
    return out;
  }
}
