import type { Knex } from 'knex';
import type { IndexContext, Logger, NormalizedBlock, TableDef } from '../../framework';
import { BigmapValueTable } from './BigmapValueTable';
import { BlockBigmaps } from './BlockBigmaps';
import { LiveValues } from './LiveValues';

/**
 * The bigmaps plugin's handlers: each block's changes go to bigmap_updates (append) and bigmaps
 * (entity rows, journaled by the framework); at the end of each batch bigmap_values is re-derived
 * for the keys the batch touched, and a rollback re-derives the keys the removed blocks touched.
 */
export class BigmapIndexer {
  private readonly valueTable: BigmapValueTable;
  /** The live keys as the batch in progress sees them (one batch = one transaction). */
  private live?: LiveValues;

  constructor(
    private readonly values: TableDef,
    updates: TableDef,
    private readonly log: Logger,
  ) {
    this.valueTable = new BigmapValueTable(values, updates);
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    // A batch that failed leaves its overlay behind: a new transaction starts from the table again.
    if (this.live?.read !== ctx.read) this.live = new LiveValues(ctx.read, this.values);
    await new BlockBigmaps(block, ctx, this.live, this.log).run();
  }

  async afterBatch(trx: Knex.Transaction, fromHeight: number, toHeight: number): Promise<void> {
    this.live = undefined;
    await this.valueTable.afterBatch(trx, fromHeight, toHeight);
  }

  async beforeRollback(trx: Knex.Transaction, height: number): Promise<void> {
    this.live = undefined;
    await this.valueTable.rollback(trx, height);
  }
}
