import { Knex } from 'knex';
import { NormalizedBlock } from '../chain';
import type { TableHandle } from '../catalog/TableHandle';
import { Row } from '../storage/BulkWriter';
import type { BatchState } from './BatchState';
import type { RecomputeFn } from './DerivedTables';
import type { SharedValues } from './SharedValues';
import type { TableReader } from './TableReader';
import type { KnownCode } from './watch/KnownCode';
import type { Destination, GroupMatch, GroupPatternOptions, PatternStep } from './groups/GroupPattern';

/** A row of a mutable table as handlers see it: its row_id is fixed from the moment it is inserted. */
export type Entity = Row & { readonly row_id: bigint };

/** A row as an entity store inserts it: its key column as a string (the store keys its rows by text). */
export type KeyedRow<R extends Row, K extends string> = Row extends R ? Row : Omit<R, K> & { [key in K]: string };

/**
 * The current rows of one mutable catalog table, addressed by a unique key column (an account's
 * address, a contract's address…). Rows are cached for the whole batch and written once at its end;
 * the framework journals their previous state near the chain head so a reorg can restore it.
 * With a generated handle (`ctx.entities(tables.pool, 'pool')`) what is written (`insert`, `update`)
 * is checked against the table's row type; what is read stays `Entity`, because a value read back
 * has the database driver's form (a bigint may come back as a string).
 */
export interface EntityStore<R extends Row = Row, K extends string = string> {
  /** The row with that key, from the cache or the database; undefined if none exists yet. */
  get(key: string): Promise<Entity | undefined>;
  /** Loads many keys in one query (call before a loop of get()s). */
  preload(keys: Iterable<string>): Promise<void>;
  /** A new row; the row_id is allocated now so other rows of the same block can reference it. */
  insert(row: KeyedRow<R, K>): Entity;
  /** Changes some columns of a row obtained from get() or insert(). */
  update(entity: Entity, patch: Partial<Omit<R, K>>): void;
  /** Rows inserted or changed in this batch and not written yet: what `ctx.read` does not see of this table. */
  pending(): readonly Entity[];
}

/** What a handler gets for one block. Everything it writes commits with the block (or its batch). */
export interface IndexContext {
  readonly block: NormalizedBlock;
  /**
   * `live` near the head (each block journaled on its own; a batch holds the blocks the node already has), `backfill`
   * while catching up (batches, no journal).
   */
  readonly mode: 'live' | 'backfill';
  /**
   * Appends a row to an append-only catalog table; its height column must hold this block's level. With a
   * generated handle (`tables.op` from the plugin's tables.generated.ts) the row is type-checked: the row
   * takes no part in inferring R, so a row typed as the plain `Row` is refused rather than widening R.
   * Answers the row id the row got (what a later row may refer to, as a block's child its parent).
   */
  append<R extends Row>(table: TableHandle<R> | string, row: NoInfer<R>): bigint;
  /** The mutable rows of a catalog table, keyed by a unique column. */
  entities<R extends Row, K extends keyof R & string>(table: TableHandle<R> | string, keyColumn: K): EntityStore<R, K>;
  /**
   * Reads a catalog table as it was committed before the batch (a select-only query builder: writes
   * go through `append` and `entities`). Rows this batch appends are not visible, even those already
   * written ahead (BatchIo); the reader is the same function for every block of a batch.
   */
  readonly read: TableReader;
  /** Values handlers of one block hand to each other under typed keys (e.g. core-chain's account ids). */
  readonly shared: SharedValues;
  /**
   * State handlers keep from block to block under typed keys (`batchKey`, `carriedKey`): running
   * totals, caches of rows, a batch's overlay. The framework drops it when the batch fails or a reorg
   * rolls back, so it never describes rows that did not commit.
   */
  readonly state: BatchState;
  /**
   * Asks the node about this block: `path` under `/chains/main/blocks/{level}/` (`votes/listings`…).
   * Undefined when the source has no node behind it (archives) or the node no longer keeps that data.
   * It runs inside the batch's transaction: for rare questions (once per period), not per operation.
   */
  node(path: string): Promise<unknown>;
  /**
   * Follows a contract under a role from this block on (a pool a factory created, a token first seen
   * in a pool): group patterns with `{role}` steps match it. Stored with the block, rolled back with it.
   */
  watch(address: string, role: string): Promise<void>;
  /** Roles under which a contract is watched (empty when it is not). */
  watched(address: string): readonly string[];
}

/** How the indexer reaches the node for `IndexContext.node`. */
export type NodeRpc = (level: number, path: string) => Promise<unknown>;

export type BlockHandlerFn = (block: NormalizedBlock, ctx: IndexContext) => Promise<void> | void;
export type OperationHandlerFn = (op: NormalizedBlock['operations'][number], ctx: IndexContext) => Promise<void> | void;
export type GroupHandlerFn<N extends string = string> = (
  match: GroupMatch<N>,
  ctx: IndexContext,
) => Promise<void> | void;
/** Which originated contracts a plugin claims: by code hash, by interface or by entrypoints. */
export type ContractSelector = Exclude<Destination, string | { readonly role: string }>;

/** Which operations an operation handler wants; omitted fields match everything. */
export interface OperationFilter {
  /** Spec operation types (`transaction`, `origination`, …). */
  types?: readonly string[];
  /** Target (receiver) contract addresses. */
  contracts?: readonly string[];
  /** Entrypoints called. */
  entrypoints?: readonly string[];
  /** Include failed/backtracked/skipped operations (default: applied only). */
  includeFailed?: boolean;
}

/**
 * What a batch-start hook may use: reads, the batch's state and the entity stores' caches. It writes
 * nothing (no block is open to journal it); it only reads ahead what the batch's blocks will ask.
 */
export interface BlocksStartContext {
  readonly read: TableReader;
  readonly state: BatchState;
  /** Reads the rows of these keys into the table's entity store for the batch (EntityStore.preload). */
  preload(table: TableHandle<unknown> | string, keyColumn: string, keys: Iterable<string>): Promise<void>;
}
/**
 * Called when a batch opens, before its first block, with all its blocks: a plugin reads in a few
 * queries what its handlers would otherwise ask block by block (the rows of the accounts they touch).
 */
export type BlocksStartFn = (blocks: readonly NormalizedBlock[], ctx: BlocksStartContext) => Promise<void> | void;
/** Called in the batch transaction after a rollback deleted/restored rows above `height`. */
export type RollbackHookFn = (trx: Knex.Transaction, height: number) => Promise<void> | void;
/**
 * Called after the last block of a batch was handled, before the batch's writes are flushed, with that
 * block's context: what a handler summed over a catch-up batch (no journal there) is written once.
 */
export type BlocksDoneFn = (ctx: IndexContext) => Promise<void> | void;
/**
 * Called in the batch transaction after all blocks of a batch were handled and flushed; `state` is the batch's
 * (ctx.state).
 */
export type BatchHookFn = (
  trx: Knex.Transaction,
  fromHeight: number,
  toHeight: number,
  state: BatchState,
) => Promise<void> | void;

/** How a plugin subscribes to the shared block dispatcher (the `handlers` its setup() returns). */
export interface HandlerRegistry {
  onBlock(handler: BlockHandlerFn): void;
  onOperation(filter: OperationFilter, handler: OperationHandlerFn): void;
  /**
   * Calls the handler for every group whose transactions and originations (internal ones included)
   * contain the steps in order; see GroupMatcher for the rules.
   */
  onOperationGroup<N extends string>(
    steps: readonly PatternStep<N>[],
    handler: GroupHandlerFn<N>,
    options?: GroupPatternOptions,
  ): void;
  /**
   * Watches every contract originated (applied) whose code matches the selector, under the role, from its origination
   * on.
   */
  claim(role: string, selector: ContractSelector): void;
  /** Ships a contract version's real types: contracts met with no script at hand are read with the one they fit. */
  knownCode(code: KnownCode): void;
  blocksStart(hook: BlocksStartFn): void;
  blocksDone(hook: BlocksDoneFn): void;
  afterBatch(hook: BatchHookFn): void;
  /**
   * How a reorg re-derives a table the catalog declares `derived_from` others (the framework checks
   * at start-up that every such table has exactly one hook).
   */
  recompute(table: TableHandle<unknown> | string, hook: RecomputeFn): void;
  /** Called in the rollback transaction before the framework deletes and restores the rows above the fork. */
  beforeRollback(hook: RollbackHookFn): void;
  /** Called in the rollback transaction after it (in-memory state is dropped by the framework: see `ctx.state`). */
  afterRollback(hook: RollbackHookFn): void;
}
