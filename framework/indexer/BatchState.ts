/**
 * A typed name for state that handlers build while indexing (running totals, caches of table rows,
 * a batch's overlay). `init` makes the value when a handler first asks for it after a drop.
 */
export interface StateKey<T> {
  readonly name: string;
  readonly init: () => T;
  /** Kept after a committed batch (a cache of what the tables say), or dropped with the batch. */
  readonly carried: boolean;
}

/** State of one batch (one transaction): dropped when the batch ends, committed or not. */
export function batchKey<T>(name: string, init: () => T): StateKey<T> {
  return { name, init, carried: false };
}

/** State carried from batch to batch while they commit: dropped only when a batch fails or a reorg rolls back. */
export function carriedKey<T>(name: string, init: () => T): StateKey<T> {
  return { name, init, carried: true };
}

/**
 * Why the framework owns this state rather than the plugins: it knows when a batch's transaction
 * rolled back (an error, a crash before commit) and when a reorg removed blocks, and then the
 * tables are the truth again. So no plugin needs its own "forget" hook, and none can keep a cache
 * that describes rows which never committed.
 */
export class BatchState {
  private readonly values = new Map<string, { key: StateKey<unknown>; value: unknown }>();

  /** The value under the key, made by its `init` when there is none. */
  get<T>(key: StateKey<T>): T {
    const held = this.values.get(key.name);
    if (held) return held.value as T;
    const value = key.init();
    this.values.set(key.name, { key, value });
    return value;
  }

  set<T>(key: StateKey<T>, value: T): void {
    this.values.set(key.name, { key, value });
  }

  /** The batch committed: its own values go, carried ones stay. */
  committed(): void {
    for (const [name, held] of this.values) if (!held.key.carried) this.values.delete(name);
  }

  /** The batch failed or a reorg rolled back: every value goes. */
  drop(): void {
    this.values.clear();
  }
}
