import type { Knex } from 'knex';
import { batchKey, type IndexContext, type Logger, type NormalizedBlock, type TableDef } from '../../framework';
import { BigmapValueTable } from './BigmapValueTable';
import { BlockBigmaps } from './BlockBigmaps';
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

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    // The framework drops the overlay with its batch: a new transaction starts from the table again.
    let live = ctx.state.get(LIVE);
    if (!live) ctx.state.set(LIVE, (live = new LiveValues(ctx.read, this.values)));
    await new BlockBigmaps(block, ctx, live, this.log).run();
  }

  async afterBatch(trx: Knex.Transaction, fromHeight: number, toHeight: number): Promise<void> {
    await this.valueTable.afterBatch(trx, fromHeight, toHeight);
  }

  /** bigmap_values as of `height`, while bigmap_updates still holds the rows above it. */
  async recompute(trx: Knex.Transaction, height: number): Promise<void> {
    await this.valueTable.rollback(trx, height);
  }
}
