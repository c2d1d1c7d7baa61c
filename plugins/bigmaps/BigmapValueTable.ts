import type { Knex } from 'knex';
import type { TableDef } from '../../framework';

/**
 * bigmap_values is derived data: a key's row is the latest bigmap_updates row of that key when that
 * row sets a value (and takes its row_id); a key whose latest update is a removal has no row. So the
 * table is brought up to date, and rolled back, by re-deriving the keys some updates touched.
 */
export class BigmapValueTable {
  constructor(
    private readonly values: TableDef,
    private readonly updates: TableDef,
  ) {}

  /** After a batch: the keys updated at heights from..to get the value of their latest update. */
  async afterBatch(trx: Knex.Transaction, fromHeight: number, toHeight: number): Promise<void> {
    await this.rederive(trx, (q) => q.whereBetween('height', [fromHeight, toHeight]), toHeight);
  }

  /**
   * Before a reorg back to `height` (while bigmap_updates still holds the rows above it, which the
   * framework then deletes): the keys updated above it get the value of their latest update at or below it.
   */
  async rollback(trx: Knex.Transaction, height: number): Promise<void> {
    await this.rederive(trx, (q) => q.where('height', '>', height), height);
  }

  private async rederive(
    trx: Knex.Transaction,
    touching: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
    upTo: number,
  ): Promise<void> {
    const touched = touching(
      trx.withSchema(this.updates.schema).from(this.updates.storage).distinct('bigmap_id', 'hash').whereNotNull('hash'),
    );
    await trx
      .withSchema(this.values.schema)
      .from(this.values.storage)
      .whereIn(['bigmap_id', 'hash'], touched.clone())
      .delete();
    const { sql, bindings } = touched.toSQL();
    await trx.raw(
      `insert into ??.?? ("row_id", "bigmap_id", "height", "key_id", "key", "value", "hash", "time")
       select l."row_id", l."bigmap_id", l."height", l."key_id", l."key", l."value", l."hash", l."time"
         from (${sql}) t
         cross join lateral (
           select u.* from ??.?? u where u."bigmap_id" = t."bigmap_id" and u."hash" = t."hash" and u."height" <= ?
            order by u."row_id" desc limit 1) l
        where l."action" = ${this.updates.column('action')!.type.literal('update')}`,
      [this.values.schema, this.values.storage, ...bindings, this.updates.schema, this.updates.storage, upTo],
    );
  }
}
