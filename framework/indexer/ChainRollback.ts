import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { physicalTables } from '../catalog/CatalogModel';
import { quote, META_SCHEMA } from '../storage/SchemaMigrator';
import { WATCH_TABLE } from './watch/WatchList';

/**
 * Undoes everything indexed above a height without plugin code: append tables lose their rows above
 * it (or flag them, where the catalog names an orphan column), mutable tables get their journaled
 * pre-images (the columns each block changed) back, newest first; contracts watched in the removed
 * blocks are no longer watched.
 */
export class ChainRollback {
  constructor(private readonly catalog: Catalog) {}

  async rollback(trx: Knex.Transaction, height: number): Promise<void> {
    for (const t of [...this.catalog.tables.values()].flatMap(physicalTables)) {
      if (t.kind !== 'append' || !t.heightColumn) continue;
      const q = trx.withSchema(t.schema).table(t.storage).where(t.heightColumn, '>', height);
      if (t.orphanColumn) await q.update({ [t.orphanColumn]: true });
      else await q.delete();
    }
    const entries: Array<{ table_code: string; row_id: string; pre_image: Record<string, unknown> | string | null }> =
      await trx(`${META_SCHEMA}.journal`)
        .where('height', '>', height)
        .orderBy('id', 'desc')
        .select('table_code', 'row_id', 'pre_image');
    for (const e of entries) {
      const t = this.catalog.table(e.table_code);
      if (!t) throw new Error(`journal names table '${e.table_code}', which is not in the catalog: cannot roll back`);
      const table = trx.withSchema(t.schema).table(t.storage);
      if (e.pre_image === null) {
        await table.where('row_id', e.row_id).delete();
        continue;
      }
      const image = typeof e.pre_image === 'string' ? JSON.parse(e.pre_image) : e.pre_image;
      // The image holds the columns its block changed: the row exists (rows are never deleted but by a rollback).
      const row: Record<string, unknown> = {};
      for (const c of t.columns) if (c.name in image && c.name !== 'row_id') row[c.name] = c.type.toDb(image[c.name]);
      if (Object.keys(row).length > 0) await table.where('row_id', e.row_id).update(row);
    }
    await trx(`${META_SCHEMA}.journal`).where('height', '>', height).delete();
    await trx(WATCH_TABLE).where('height', '>', height).delete();
    await trx(`${META_SCHEMA}.block_hashes`).where('height', '>', height).delete();
  }

  /** Journal lines and block hashes below the reorg window are never needed again. */
  async prune(trx: Knex.Transaction, belowHeight: number): Promise<void> {
    await trx.raw(`delete from ${quote(META_SCHEMA)}.journal where height < ?`, [belowHeight]);
    await trx.raw(`delete from ${quote(META_SCHEMA)}.block_hashes where height < ?`, [belowHeight]);
  }
}
