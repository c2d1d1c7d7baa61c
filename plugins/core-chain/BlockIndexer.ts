import type { Knex } from 'knex';
import {
  batchKey,
  carriedKey,
  type BatchState,
  type BlocksStartContext,
  type IndexContext,
  type Logger,
  type NormalizedBlock,
} from '../../framework';
import { blockAddresses } from './BlockAddresses';
import { BlockRun } from './BlockRun';
import { ScriptCache } from './ContractBook';
import { endorsedSlotsOfPredecessor } from './endorsedSlots';
import type { OperationKinds } from './OperationKinds';
import { RunningState, type CoreTables } from './RunningState';
import { tables } from './tables.generated';

/** The running totals after the last block indexed (see RunningState). */
const RUNNING = carriedKey<RunningState | undefined>('core-chain.running', () => undefined);
/** Contract scripts parsed once, and the contracts whose script was asked from the node. */
const SCRIPTS = carriedKey('core-chain.scripts', () => new ScriptCache());
/** A denunciation whose slashing comes cycles later (Oxford+): its op type and op row id. */
export interface Denunciation {
  type: string;
  rowId: bigint;
}
/** Denunciations by operation hash, for slashings applied cycles later (Oxford+). */
const DENUNCIATIONS = carriedKey('core-chain.denunciations', () => new Map<string, Denunciation>());
/** Op row ids of the denunciations the batch's blocks slashed: their figures are set once it is flushed. */
const SLASHED = batchKey('core-chain.slashed', () => new Set<bigint>());
/**
 * Slots that endorsed a block of the batch, by its hash, from the next block of the batch: written
 * with the block's row. The batch's last block gets its slots from the next batch (ENDORSED_SLOTS).
 */
const SLOTS_IN_BATCH = batchKey('core-chain.slots-in-batch', () => new Map<string, number>());
/** Slots that endorsed a block of an earlier batch, by block hash; written into its row once the batch is flushed. */
const ENDORSED_SLOTS = batchKey('core-chain.endorsed-slots', () => new Map<string, number>());
/** Constants registered by blocks of the current batch (not in the table until it is flushed). */
const BATCH_CONSTANTS = batchKey('core-chain.constants', () => new Set<string>());
/** Protocols whose constants blocks of the current batch carried. */
const BATCH_PROTOCOLS = batchKey('core-chain.protocols', () => new Set<string>());

/**
 * core-chain's block handler: turns one normalized block into rows of block, op, flow, balance,
 * constant, chain and supply, and the current state of the block's accounts and contracts. The
 * running totals and caches stay in the framework's batch state between blocks, which drops them
 * when a batch fails or a reorg rolls back (the tables are the truth again).
 */
export class BlockIndexer {
  private readonly warnedTypes = new Set<string>();

  constructor(
    readonly tables: CoreTables,
    readonly kinds: OperationKinds,
    readonly log: Logger,
    /** Records a chain value kept out of a column (UndecodableValues, for core-chain). */
    readonly undecodable: (kind: string, detail: Record<string, unknown>) => void,
  ) {}

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    // A block that fails fails its batch, and the framework then drops the half-applied totals.
    const known = ctx.state.get(RUNNING);
    const state =
      known && known.hash === block.predecessor
        ? known
        : await RunningState.load(ctx.read, this.tables, block.predecessor);
    await this.recordConstants(block, ctx);
    await new BlockRun(this, block, ctx, state, ctx.state.get(SCRIPTS)).run();
    state.hash = block.hash;
    state.time = new Date(block.time);
    ctx.state.set(RUNNING, state);
  }

  /**
   * The rows of every account and contract (KT1, rollups: not tz) the batch's blocks mention, in a few queries rather
   * than some per block.
   */
  async readAhead(blocks: readonly NormalizedBlock[], ctx: BlocksStartContext): Promise<void> {
    const slots = ctx.state.get(SLOTS_IN_BATCH);
    for (let i = 1; i < blocks.length; i++) {
      if (blocks[i].predecessor === blocks[i - 1].hash)
        slots.set(blocks[i - 1].hash, endorsedSlotsOfPredecessor(blocks[i]));
    }
    const addresses = [...new Set(blocks.flatMap(blockAddresses))];
    await ctx.preload('account', 'address', addresses);
    await ctx.preload(
      'contract',
      'address',
      addresses.filter((a) => !a.startsWith('tz')),
    );
  }

  /** The slots that endorsed a block of the batch (0 for its last block: see SLOTS_IN_BATCH). */
  endorsedSlots(ctx: IndexContext, blockHash: string): number {
    return ctx.state.get(SLOTS_IN_BATCH).get(blockHash) ?? 0;
  }

  /**
   * A block's endorsements of a predecessor that an earlier batch wrote: its row is updated after the
   * batch, even to none (the block may replace one a reorg took back, whose endorsements it held).
   */
  recordEndorsedSlots(ctx: IndexContext, block: NormalizedBlock): void {
    if (ctx.state.get(SLOTS_IN_BATCH).has(block.predecessor)) return;
    ctx.state.get(ENDORSED_SLOTS).set(block.predecessor, endorsedSlotsOfPredecessor(block));
  }

  recordDenunciation(ctx: IndexContext, hash: string, type: string, rowId: bigint): void {
    ctx.state.get(DENUNCIATIONS).set(hash, { type, rowId });
  }

  /** The denunciations behind delayed slashings, from memory or the op table. */
  async denunciations(ctx: IndexContext, hashes: Iterable<string>): Promise<ReadonlyMap<string, Denunciation>> {
    const denunciations = ctx.state.get(DENUNCIATIONS);
    const missing = [...new Set(hashes)].filter((h) => !denunciations.has(h));
    if (missing.length > 0) {
      const rows = await ctx.read(this.tables.op).whereIn('hash', missing).select('hash', 'type', 'row_id');
      for (const r of rows) {
        if (!String(r.type).startsWith('double_')) continue;
        denunciations.set(String(r.hash), { type: String(r.type), rowId: BigInt(r.row_id) });
      }
    }
    return denunciations;
  }

  /** A denunciation the block's slashing applies: its figures are set after the batch (DenunciationFigures). */
  recordSlashing(ctx: IndexContext, rowId: bigint): void {
    ctx.state.get(SLASHED).add(rowId);
  }

  /** Op row ids of the denunciations the batch slashed. */
  slashedIn(state: BatchState): readonly bigint[] {
    return [...state.get(SLASHED)];
  }

  /**
   * Whether a constant can be stored: an address is registered once on chain, so a repeated one
   * (from a faulty source) is skipped with a warning instead of failing the batch on the unique index.
   */
  async isNewConstant(ctx: IndexContext, address: string): Promise<boolean> {
    const t = this.tables.constant;
    const batchConstants = ctx.state.get(BATCH_CONSTANTS);
    const known = batchConstants.has(address) || (await ctx.read(t).where({ address }).first('row_id')) !== undefined;
    if (known)
      this.log.warn(
        { address, block: ctx.block.level },
        'core-chain: global constant registered twice; the repeat is not stored',
      );
    else batchConstants.add(address);
    return !known;
  }

  /** The protocol constants a block carries, once per protocol (a resumed run supplies them again). */
  private async recordConstants(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    const batchProtocols = ctx.state.get(BATCH_PROTOCOLS);
    if (block.constants === undefined || batchProtocols.has(block.protocol)) return;
    const t = this.tables.protocol;
    if ((await ctx.read(t).where({ protocol: block.protocol }).first('row_id')) !== undefined) return;
    batchProtocols.add(block.protocol);
    ctx.append(tables.protocol, { protocol: block.protocol, height: block.level, constants: block.constants });
  }

  warnUnknown(kind: string, block: number): void {
    if (this.warnedTypes.has(kind)) return;
    this.warnedTypes.add(kind);
    this.log.warn(
      { kind, block },
      `core-chain: no op type for node kind '${kind}'; stored as 'unknown' with the kind in data`,
    );
  }

  /**
   * Stores the endorsed slots of the block an earlier batch ended with (one row; each block when following the head).
   */
  async afterBatch(trx: Knex.Transaction, state: BatchState): Promise<void> {
    const t = this.tables.block;
    // Orphaned blocks stay in the table; only main-chain rows are updated.
    const onMain = (alias: string): string => (t.orphanColumn ? ` and not ${alias}.${quoteIdent(t.orphanColumn)}` : '');
    const entries = [...state.get(ENDORSED_SLOTS)];
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      await trx.raw(
        `update ??.?? as b set n_endorsed_slots = v.n from (values ${chunk.map(() => '(?, ?::bigint)').join(', ')}) as v(hash, n) where b.hash = v.hash${onMain('b')}`,
        [t.schema, t.storage, ...chunk.flat()],
      );
    }
  }
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
