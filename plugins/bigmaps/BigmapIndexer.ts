import type { Knex } from 'knex';
import {
  batchKey,
  type BatchState,
  type BlocksStartContext,
  type IndexContext,
  type Logger,
  type NormalizedBlock,
  type TableDef,
  type TableReader,
} from '../../framework';
import { BigmapValueTable } from './BigmapValueTable';
import { BlockBigmaps, touchedBigmaps } from './BlockBigmaps';
import { LiveValues } from './LiveValues';

/** The live keys as the batch in progress sees them (one batch = one transaction). */
const LIVE = batchKey<LiveValues | undefined>('bigmaps.live', () => undefined);

/**
 * The bigmaps plugin's handlers: each block's changes go to bigmap_updates (append) and bigmaps
 * (entity rows, journaled by the framework); at the end of each batch bigmap_values is re-derived
 * for the keys the batch touched, and a rollback re-derives the keys the removed blocks touched
 * (bigmap_values is declared `derived_from: [bigmap_updates]`, so the framework calls `recompute`).
 */
export class BigmapIndexer {
  private readonly valueTable: BigmapValueTable;

  constructor(
    private readonly values: TableDef,
    updates: TableDef,
    private readonly log: Logger,
  ) {
    this.valueTable = new BigmapValueTable(values, updates);
  }

  /**
   * The batch's bigmap rows and the live values of the keys it changes, in a few queries rather than some per block.
   */
  async readAhead(blocks: readonly NormalizedBlock[], ctx: BlocksStartContext): Promise<void> {
    const { ids, keys } = touchedBigmaps(blocks);
    await ctx.preload('bigmaps', 'bigmap_id', ids);
    await this.live(ctx.state, ctx.read).preload(keys);
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    await new BlockBigmaps(block, ctx, this.live(ctx.state, ctx.read), this.log).run();
  }

  /** The framework drops the overlay with its batch: a new transaction starts from the table again. */
  private live(state: BatchState, read: TableReader): LiveValues {
    let live = state.get(LIVE);
    if (!live) state.set(LIVE, (live = new LiveValues(read, this.values)));
    return live;
  }

  async afterBatch(trx: Knex.Transaction, fromHeight: number, toHeight: number): Promise<void> {
    await this.valueTable.afterBatch(trx, fromHeight, toHeight);
  }

  /** bigmap_values as of `height`, while bigmap_updates still holds the rows above it. */
  async recompute(trx: Knex.Transaction, height: number): Promise<void> {
    await this.valueTable.rollback(trx, height);
  }
}
