import type { Knex } from 'knex';
import type { IndexContext, Logger, NormalizedBlock } from '../../framework';
import { BlockRun } from './BlockRun';
import { ScriptCache } from './ContractBook';
import type { OperationKinds } from './OperationKinds';
import { RunningState, type CoreTables } from './RunningState';

/**
 * core-chain's block handler: turns one normalized block into rows of block, op, flow, balance,
 * constant, chain and supply, and the current state of the block's accounts and contracts. The
 * running totals stay in memory between consecutive blocks (see RunningState).
 */
export class BlockIndexer {
  private state?: RunningState;
  private readonly scripts = new ScriptCache();
  /** Slots that endorsed a block, by block hash; written into the block rows once the batch is flushed. */
  private readonly endorsedSlots = new Map<string, number>();
  /** Denunciation types by operation hash, for slashings applied cycles later (Oxford+). */
  private readonly denunciations = new Map<string, string>();
  private readonly warnedTypes = new Set<string>();
  /** Constants registered by blocks of the current batch (not in the table until it is flushed). */
  private readonly batchConstants = new Set<string>();
  /** Protocols whose constants blocks of the current batch carried. */
  private readonly batchProtocols = new Set<string>();

  constructor(
    readonly tables: CoreTables,
    readonly kinds: OperationKinds,
    readonly log: Logger,
  ) {}

  /** After a rollback the database is the truth again. */
  forget(): void {
    this.state = undefined;
    this.scripts.clear();
    this.endorsedSlots.clear();
    this.denunciations.clear();
    this.batchConstants.clear();
    this.batchProtocols.clear();
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    let state = this.state;
    // Invalid until this block is done: a failing block must not leave half-applied totals behind.
    this.state = undefined;
    if (!state || state.hash !== block.predecessor) state = await RunningState.load(ctx.read, this.tables, block.predecessor);
    await this.recordConstants(block, ctx);
    await new BlockRun(this, block, ctx, state, this.scripts).run();
    state.hash = block.hash;
    state.time = new Date(block.time);
    this.state = state;
  }

  recordEndorsedSlots(blockHash: string, slots: number): void {
    this.endorsedSlots.set(blockHash, slots);
  }

  recordDenunciation(hash: string, type: string): void {
    this.denunciations.set(hash, type);
  }

  /** Types of the denunciations behind delayed slashings, from memory or the op table. */
  async denouncedTypes(ctx: IndexContext, hashes: Iterable<string>): Promise<Map<string, string>> {
    const missing = [...new Set(hashes)].filter((h) => !this.denunciations.has(h));
    if (missing.length > 0) {
      const rows = await ctx.read(this.tables.op).whereIn('hash', missing).select('hash', 'type');
      for (const r of rows) if (String(r.type).startsWith('double_')) this.denunciations.set(String(r.hash), String(r.type));
    }
    return this.denunciations;
  }

  /**
   * Whether a constant can be stored: an address is registered once on chain, so a repeated one
   * (from a faulty source) is skipped with a warning instead of failing the batch on the unique index.
   */
  async isNewConstant(ctx: IndexContext, address: string): Promise<boolean> {
    const t = this.tables.constant;
    const known = this.batchConstants.has(address) || (await ctx.read(t).where({ address }).first('row_id')) !== undefined;
    if (known) this.log.warn({ address, block: ctx.block.level }, 'core-chain: global constant registered twice; the repeat is not stored');
    else this.batchConstants.add(address);
    return !known;
  }

  /** The protocol constants a block carries, once per protocol (a resumed run supplies them again). */
  private async recordConstants(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    if (block.constants === undefined || this.batchProtocols.has(block.protocol)) return;
    const t = this.tables.protocol;
    if ((await ctx.read(t).where({ protocol: block.protocol }).first('row_id')) !== undefined) return;
    this.batchProtocols.add(block.protocol);
    ctx.append('protocol', { protocol: block.protocol, height: block.level, constants: block.constants });
  }

  warnUnknown(kind: string, block: number): void {
    if (this.warnedTypes.has(kind)) return;
    this.warnedTypes.add(kind);
    this.log.warn({ kind, block }, `core-chain: no op type for node kind '${kind}'; stored as 'unknown' with the kind in data`);
  }


  /** Links the batch's blocks to their parents and stores the endorsed slots the batch saw. */
  async afterBatch(trx: Knex.Transaction, from: number, to: number): Promise<void> {
    const t = this.tables.block;
    // Orphaned blocks stay in the table; only main-chain rows are linked and updated.
    const onMain = (alias: string): string => (t.orphanColumn ? ` and not ${alias}.${quoteIdent(t.orphanColumn)}` : '');
    await trx.raw(
      `update ??.?? as c set parent_id = p.row_id from ??.?? as p where c.height between ? and ? and c.parent_id is null and p.hash = c.predecessor${onMain('p')}`,
      [t.schema, t.storage, t.schema, t.storage, from, to],
    );
    this.batchConstants.clear();
    this.batchProtocols.clear();
    const entries = [...this.endorsedSlots];
    this.endorsedSlots.clear();
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      await trx.raw(
        `update ??.?? as b set n_endorsed_slots = v.n from (values ${chunk.map(() => '(?, ?::bigint)').join(', ')}) as v(hash, n) where b.hash = v.hash${onMain('b')}`,
        [t.schema, t.storage, ...chunk.flat()],
      );
    }
  }
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
