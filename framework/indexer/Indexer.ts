import { setImmediate } from 'node:timers/promises';
import { Catalog } from '../catalog/Catalog';
import { abortableSleep, BlockNormalizer, BlockRef, BlockSource, NormalizedBlock, RpcError } from '../chain';
import type { RawBlock } from '../chain/model/RawBlock';
import { ChainState, FINAL_DEPTH } from './ChainState';
import { BrinSummaries } from '../storage/BrinSummaries';
import { BulkWriter } from '../storage/BulkWriter';
import { Database } from '../storage/Database';
import { isConnectionLoss } from '../storage/DatabaseErrors';
import { TableMaintenance } from '../storage/TableMaintenance';
import { HeightPartitions } from '../storage/HeightPartitions';
import { RangePacking } from '../storage/RangePacking';
import { Logger } from '../util/Logger';
import { BlockDispatcher } from './BlockDispatcher';
import { ChainRollback } from './ChainRollback';
import { EntityStates } from './EntityStates';
import { BatchIo, IndexBatch } from './IndexBatch';
import type { IndexContext, NodeRpc } from './IndexContext';
import { BatchPhase, IndexerStatus } from './IndexerStatus';
import { SyncCursor, SyncState } from './SyncState';

export interface IndexerOptions {
  /** Deepest reorg that can be undone: the journal and block hashes cover this many blocks below the head. */
  reorgDepth: number;
  /** Blocks per transaction while catching up (far from the head). */
  batchBlocks: number;
  /**
   * Operations per transaction: a batch also ends before the block that would take it past this many
   * (never before its first block), so its memory follows the chain's density, not only its block count.
   */
  batchOperations: number;
  /** Blocks fetched ahead of the one being indexed. */
  prefetch: number;
  /** First level to index when the database is empty (default: the source's first level). */
  fromLevel?: number;
  /** Stop after this level. */
  toLevel?: number;
  /** Pause before retrying after a source failure. */
  retryDelayMs: number;
  /**
   * Postgres: appended rows that, once waiting between two blocks, the batch writes while its next
   * blocks are handled (BatchIo); 0 writes them all at the batch's end. PGlite always does: it runs
   * in this thread, so there is nothing to overlap, and its one connection is the transaction's.
   */
  writeAheadRows: number;
  /**
   * Least time between two looks at the tables' statistics for a VACUUM or ANALYZE the indexer runs
   * itself (PGlite, or a server with autovacuum off: TableMaintenance).
   */
  maintenanceIntervalMs: number;
}

/** A batch read from the source: its blocks in order, and whether they are in the journaled window. */
interface ReadBatch {
  blocks: NormalizedBlock[];
  live: boolean;
}

export const DEFAULT_INDEXER_OPTIONS: IndexerOptions = {
  reorgDepth: FINAL_DEPTH,
  batchBlocks: 100,
  batchOperations: 20_000,
  prefetch: 8,
  retryDelayMs: 2000,
  writeAheadRows: 2000,
  maintenanceIntervalMs: 10_000,
};

/** A handler or the database failed: the batch was rolled back and indexing stops (the API goes on). */
export class IndexingError extends Error {}

/**
 * The crawler: reads blocks from a source in order, normalizes them, hands them to the dispatcher and
 * commits each batch's writes together with the sync cursor, so a crash anywhere resumes exactly
 * after the last committed block. A block whose predecessor is not our tip means a reorg: the fork
 * point is found by comparing recent hashes with the source, everything above it is rolled back in
 * one transaction, and indexing continues on the new branch.
 */
export class Indexer {
  private readonly states = new EntityStates();
  private readonly rollback: ChainRollback;
  private readonly sync = new SyncState();
  private readonly writer: BulkWriter;
  private readonly brin: BrinSummaries;
  private readonly maintenance: TableMaintenance;
  private readonly partitions: HeightPartitions;
  private readonly packing: RangePacking;
  private readonly normalizer: BlockNormalizer;
  private tip?: SyncCursor;
  private lastBlockTime?: number;
  /** Protocol whose constants the last dispatched block carried (see attachConstants). */
  private constantsProtocol?: string;
  /** Operations per block of the last batch read: how many blocks the next one asks the source for. */
  private opsPerBlock = 0;

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly dispatcher: BlockDispatcher,
    private readonly source: BlockSource,
    private readonly status: IndexerStatus,
    private readonly chain: ChainState,
    private readonly log: Logger,
    private readonly options: IndexerOptions = DEFAULT_INDEXER_OPTIONS,
  ) {
    this.rollback = new ChainRollback(catalog);
    this.writer = new BulkWriter(db.kind);
    this.brin = new BrinSummaries(catalog);
    this.maintenance = new TableMaintenance(catalog, db.kind, log, options.maintenanceIntervalMs);
    this.partitions = new HeightPartitions(catalog, log);
    this.packing = new RangePacking(catalog, db.kind, log);
    this.normalizer = new BlockNormalizer({ logger: { warn: (obj: object, msg?: string) => log.warn(obj, msg) } });
  }

  /** Indexes until the source is exhausted (archives), `toLevel` is reached, or the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.chain.update({ finalDepth: this.options.reorgDepth });
    this.status.mode = 'sync';
    this.status.status = 'connecting';
    let resume = true;
    while (!signal.aborted) {
      try {
        if (resume) await this.resume();
        resume = false;
        const head = await this.source.head(signal);
        this.status.firstLevel ??= this.tip
          ? this.tip.height
          : (this.options.fromLevel ?? (await this.source.firstLevel(signal)));
        this.status.status = 'syncing';
        await this.catchUp(head, signal);
        if (this.reachedEnd()) break;
        if (!this.source.live) break;
        this.status.status = 'synced';
        for await (const h of this.source.heads(signal)) {
          await this.catchUp(h, signal);
          if (this.reachedEnd()) break;
          this.status.status = 'synced';
        }
        if (this.reachedEnd()) break;
      } catch (e) {
        if (signal.aborted) break;
        if (e instanceof IndexingError) {
          this.status.status = 'failed';
          this.status.lastError = e.message;
          this.log.error({ err: e.cause ?? e }, `indexing stopped: ${e.message}`);
          return;
        }
        // A lost database connection may have lost a commit's answer, not the commit: start again from
        // what the database holds.
        const lost = isConnectionLoss(e);
        resume ||= lost;
        const what = lost ? 'database connection lost' : 'block source failed';
        this.log.warn({ err: e }, `${what}, retrying in ${this.options.retryDelayMs} ms`);
        this.status.status = 'connecting';
        // Cut short by an abort, which the loop then sees; the helper drops its listener when the time is up.
        await abortableSleep(this.options.retryDelayMs, signal).catch(() => undefined);
      }
    }
    if (!signal.aborted) this.status.status = 'synced';
  }

  /** Where indexing stands in the database: the committed tip and the watched contracts. */
  private async resume(): Promise<void> {
    this.tip = await this.sync.read(this.db.writer);
    await this.dispatcher.contracts.watches.load(this.db.writer);
    if (this.tip) this.status.setIndexed(this.tip.height);
  }

  private reachedEnd(): boolean {
    return this.options.toLevel !== undefined && this.tip !== undefined && this.tip.height >= this.options.toLevel;
  }

  /**
   * Indexes every block up to the head that the source holds. A head at or below our tip that is not
   * our block there (a higher round, a shorter branch, a node behind us or on another chain) is rolled
   * back to first, so the node's height is published only once the index is not above it.
   */
  private async catchUp(head: BlockRef, signal: AbortSignal): Promise<void> {
    const headLevel = head.level;
    const tip = this.tip;
    if (tip && (headLevel < tip.height || (headLevel === tip.height && tip.hash !== head.hash))) {
      await this.handleReorg(signal, headLevel);
    }
    this.status.setNodeHeight(headLevel);
    const limit = Math.min(headLevel, this.options.toLevel ?? Infinity);
    let prefetched: Promise<ReadBatch | undefined> | undefined;
    for (;;) {
      if (signal.aborted) return;
      const read = await (prefetched ?? this.readBatch(this.tip?.height, limit, headLevel, signal));
      prefetched = undefined;
      if (!read) return;
      const { blocks, live } = read;
      const forked = this.tip && blocks[0].level === this.tip.height + 1 && blocks[0].predecessor !== this.tip.hash;
      if (forked) {
        await this.handleReorg(signal);
        continue;
      }
      // Only the first block is checked against the tip above; the rest must chain among themselves.
      const linked = [blocks[0]];
      for (let i = 1; i < blocks.length && blocks[i].predecessor === blocks[i - 1].hash; i++) linked.push(blocks[i]);
      await this.attachConstants(linked, signal);
      // While a backfill batch commits, the next one is fetched, and normalized once this one's
      // handlers are done (see readBatch); it is checked against the new tip like any batch. (A
      // failed commit leaves it unread: its rejection is handled here so it is never an unhandled one.)
      const handled = gate();
      if (!live && linked.length === blocks.length) {
        const next = this.readBatch(linked[linked.length - 1].level, limit, headLevel, signal, handled.opened);
        next.catch(() => undefined);
        prefetched = next;
      }
      try {
        await this.commit(linked, live ? 'live' : 'backfill', headLevel, signal, handled.open);
      } finally {
        handled.open();
      }
    }
  }

  /**
   * The next batch after level `after` (from the start when undefined): the blocks the source has, in
   * order, normalized. Blocks a reorg could still reach are journaled, so a backfill batch never
   * extends into that window. A journaled (live) batch takes the blocks the source already has, up to
   * `batchBlocks` (journal lines are per block, so a rollback can still stop between them): one block
   * when following the head, but a node that is some blocks ahead costs one transaction, not one per
   * block. Undefined when there is nothing to read (or the source moved under us: ask again).
   *
   * A batch read ahead (`normalizeAfter` given) is normalized only once that promise resolves (the
   * batch before it has run its handlers), a block per event-loop turn. Why: normalizing is CPU
   * work the next batch needs but the current one does not; done as soon as the blocks arrive it
   * delays the current batch's opening and handlers, while in the turns the flush and the batch-end
   * hooks spend waiting on the database it costs nothing (about 0.3 s per 1,000 mainnet-like blocks).
   */
  private async readBatch(
    after: number | undefined,
    limit: number,
    headLevel: number,
    signal: AbortSignal,
    normalizeAfter?: Promise<void>,
  ): Promise<ReadBatch | undefined> {
    const levels = await this.nextLevels(after, limit, signal);
    if (levels.length === 0) return undefined;
    const final = (level: number): boolean => headLevel - level >= this.options.reorgDepth;
    const live = !final(levels[0]);
    const take = Math.min(this.blocksToAsk(), live ? levels.length : levels.filter(final).length);
    const raws = await Promise.all(levels.slice(0, take).map((l) => this.source.blockAt(l, signal)));
    if (normalizeAfter) await normalizeAfter;
    const blocks: NormalizedBlock[] = [];
    let operations = 0;
    for (const raw of raws) {
      if (!raw) break; // the source moved under us (reorg in progress): ask again
      if (normalizeAfter) await setImmediate();
      const block = this.normalize(raw);
      // Past the budget: this block starts the next batch (asked for again; blocksToAsk keeps that rare).
      if (blocks.length > 0 && operations + block.operations.length > this.options.batchOperations) break;
      blocks.push(block);
      operations += block.operations.length;
    }
    if (blocks.length === 0) return undefined;
    this.opsPerBlock = operations / blocks.length;
    return { blocks, live };
  }

  /** Blocks per batch: `batchBlocks`, fewer when the last batch's blocks would fill the operation budget first. */
  private blocksToAsk(): number {
    const fit = this.opsPerBlock > 0 ? Math.floor(this.options.batchOperations / this.opsPerBlock) : Infinity;
    return Math.max(1, Math.min(this.options.batchBlocks, fit));
  }

  private async nextLevels(after: number | undefined, limit: number, signal: AbortSignal): Promise<number[]> {
    const levels: number[] = [];
    if (after === undefined) {
      const first = this.options.fromLevel ?? (await this.source.firstLevel(signal));
      if (first > limit) return [];
      levels.push(first);
      after = first;
    }
    while (levels.length < Math.max(this.options.prefetch, this.options.batchBlocks)) {
      const next = await this.source.nextLevel(after, signal);
      if (next === undefined || next > limit) break;
      levels.push(next);
      after = next;
    }
    return levels;
  }

  /** Protocol constants on the run's first block and where the protocol changes (one RPC per protocol). */
  private async attachConstants(blocks: NormalizedBlock[], signal: AbortSignal): Promise<void> {
    if (!this.source.blockRpc) return;
    for (const block of blocks) {
      if (block.protocol === this.constantsProtocol) continue;
      const constants = await this.source.blockRpc(block.level, 'context/constants', signal);
      if (typeof constants === 'object' && constants !== null && !Array.isArray(constants))
        block.constants = constants as Record<string, unknown>;
      this.constantsProtocol = block.protocol;
    }
  }

  /** What handlers' `ctx.node(path)` asks: the source's node, when it has one. */
  private nodeRpc(signal: AbortSignal): NodeRpc {
    const source = this.source;
    return source.blockRpc ? (level, path) => source.blockRpc!(level, path, signal) : async () => undefined;
  }

  private normalize(raw: RawBlock): NormalizedBlock {
    try {
      return this.normalizer.normalize(raw);
    } catch (e) {
      throw new IndexingError(
        `block ${(raw as { hash?: string }).hash ?? '?'} cannot be read: ${(e as Error).message}`,
        { cause: e },
      );
    }
  }

  /** `handled`: called once the batch's handlers are done (the batch read ahead may be normalized). */
  private async commit(
    blocks: NormalizedBlock[],
    mode: 'live' | 'backfill',
    headLevel: number,
    signal: AbortSignal,
    handled: () => void,
  ): Promise<void> {
    const last = blocks[blocks.length - 1];
    // The head as API clients are told it (ChainState), committed with the batch for `tzidx serve` replicas.
    const previous = blocks.length > 1 ? blocks[blocks.length - 2].time : this.lastBlockTime;
    const head = {
      protocol: last.protocol,
      time: last.time,
      blockInterval:
        previous !== undefined && last.time > previous ? (last.time - previous) / 1000 : this.chain.blockInterval,
    };
    // The height ranges of the batch and the next span, before the batch's transaction (HeightPartitions).
    await this.partitions.ahead(this.db.writer, blocks[0].level, last.level);
    try {
      const lap = this.phaseClock();
      await this.db.writer.transaction(async (trx) => {
        const writeAheadRows = this.db.kind === 'postgres' ? this.options.writeAheadRows : 0;
        const io: BatchIo = { reader: writeAheadRows > 0 ? this.db.writer : trx, writeAheadRows };
        await this.states.beginBatch(trx, mode === 'live', this.catalog.tables.values(), io.reader);
        const batch = new IndexBatch(
          trx,
          this.catalog,
          this.states,
          this.writer,
          mode,
          this.dispatcher.contracts,
          this.dispatcher.state,
          this.nodeRpc(signal),
          io,
        );
        await this.dispatcher.batchStarting(blocks, batch.startContext());
        lap('open');
        let ctx: IndexContext | undefined;
        for (const block of blocks) await this.dispatcher.dispatch(block, (ctx = await batch.context(block)));
        if (ctx) await this.dispatcher.allBlocksHandled(ctx);
        lap('handlers');
        handled();
        await batch.flush();
        lap('flush');
        await this.dispatcher.batchDone(trx, blocks[0].level, last.level);
        await this.sync.write(trx, {
          height: last.level,
          hash: last.hash,
          chainId: last.chainId ?? this.tip?.chainId,
          head: { ...head, finalDepth: this.options.reorgDepth },
        });
        if (mode === 'live') await this.rollback.prune(trx, headLevel - this.options.reorgDepth);
        lap('hooks');
      });
      lap('commit');
    } catch (e) {
      this.states.reset();
      this.dispatcher.contracts.watches.reset();
      this.dispatcher.state.drop();
      if (isNodeFailure(e) || isConnectionLoss(e)) {
        // run() retries these blocks: the first of them must carry the constants again.
        this.constantsProtocol = undefined;
        throw e;
      }
      throw new IndexingError(
        `blocks ${blocks[0].level}..${last.level} could not be indexed: ${(e as Error).message}`,
        { cause: e },
      );
    }
    this.dispatcher.contracts.watches.commit();
    this.dispatcher.state.committed();
    this.tip = { height: last.level, hash: last.hash, chainId: last.chainId ?? this.tip?.chainId };
    this.status.setIndexed(last.level);
    this.status.countIndexed(
      blocks.length,
      blocks.reduce((n, b) => n + b.operations.length, 0),
    );
    this.chain.update({
      height: last.level,
      networkId: this.tip.chainId,
      protocol: head.protocol,
      headTime: head.time,
      blockInterval: head.blockInterval,
    });
    this.lastBlockTime = last.time;
    // Committed already: a failure here loses nothing, the next batch summarizes what this one left.
    await this.brin
      .afterCommit(this.db.writer)
      .catch((e: unknown) => this.log.warn({ err: e }, 'summarizing BRIN indexes failed'));
    await this.maintenance
      .afterCommit(this.db.writer)
      .catch((e: unknown) => this.log.warn({ err: e }, 'vacuuming or analyzing tables failed'));
    await this.packing
      .afterCommit(this.db.writer, last.level - this.options.reorgDepth)
      .catch((e: unknown) => this.log.warn({ err: e }, 'packing a final height range failed'));
  }

  /** Adds the time since the last lap (or since it was made) to a phase of the indexer's status. */
  private phaseClock(): (phase: BatchPhase) => void {
    let t = performance.now();
    return (phase) => {
      const now = performance.now();
      this.status.addPhase(phase, (now - t) / 1000);
      t = now;
    };
  }

  /**
   * Finds the highest height (at most `below`, the node's head when it is not above our tip) where our
   * hash equals the source's and rolls back to it.
   */
  private async handleReorg(signal: AbortSignal, below = Infinity): Promise<void> {
    const tip = this.tip!;
    let height = Math.min(tip.height, below);
    for (; height >= tip.height - this.options.reorgDepth; height--) {
      const ours = await this.ourHashAt(height);
      if (ours === undefined) break;
      const theirs = await this.source.blockAt(height, signal);
      if (theirs && (theirs as { hash?: string }).hash === ours) {
        await this.rollbackTo(height, ours);
        return;
      }
    }
    const behind = below < tip.height ? `the node's head ${below} is below the indexed height ${tip.height}, and ` : '';
    throw new IndexingError(
      `${behind}no block in common with the node within the kept window (${this.options.reorgDepth} blocks below ` +
        `${tip.height}): a reorganization deeper than that, or a node on another chain or far behind; ` +
        'point at a node that has the indexed chain, or reindex from an earlier snapshot',
    );
  }

  private async ourHashAt(height: number): Promise<string | undefined> {
    return height === this.tip?.height ? this.tip.hash : this.sync.hashAt(this.db.writer, height);
  }

  private async rollbackTo(height: number, hash: string): Promise<void> {
    const depth = this.tip!.height - height;
    this.log.warn({ from: this.tip!.height, to: height, depth }, 'chain reorganization: rolling back');
    try {
      await this.db.writer.transaction(async (trx) => {
        await this.dispatcher.rollingBack(trx, height);
        await this.dispatcher.derived.recompute(trx, height);
        await this.rollback.rollback(trx, height);
        await this.dispatcher.rolledBack(trx, height);
        await this.sync.write(trx, { height, hash, chainId: this.tip?.chainId });
      });
    } catch (e) {
      if (isConnectionLoss(e)) throw e;
      throw new IndexingError(`rollback to ${height} failed: ${(e as Error).message}`, { cause: e });
    } finally {
      this.states.reset();
      this.dispatcher.state.drop();
      // Watches of the rolled-back blocks are gone from the table (and any of a failed rollback stay).
      await this.dispatcher.contracts.watches.load(this.db.writer);
    }
    this.tip = { height, hash, chainId: this.tip?.chainId };
    // The rollback may have removed the block that carried the constants.
    this.constantsProtocol = undefined;
    this.status.setIndexed(height);
    this.chain.update({ height });
    this.status.rollbacks.inc();
    this.status.rollbackDepth.inc(depth);
  }
}

/**
 * A handler's node call (`ctx.node`) that still failed after the RPC client's retries (a node restarting,
 * a flaky link): the source failed, not the plugin, so `run()` retries the batch after a pause like a
 * failed block fetch instead of stopping the indexer. Found anywhere in the `cause` chain, in case a
 * plugin wraps it.
 */
function isNodeFailure(e: unknown): boolean {
  for (let err = e; err instanceof Error; err = err.cause) if (err instanceof RpcError && err.retryable) return true;
  return false;
}

/** A promise opened (resolved) by the first call of `open`; later calls do nothing. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
