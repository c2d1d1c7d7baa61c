import { Knex } from 'knex';
import { META_SCHEMA } from '../storage/SchemaMigrator';

export interface SyncCursor {
  height: number;
  hash: string;
  chainId?: string;
}

/** The last block whose writes committed; written in the same transaction as those writes. */
export class SyncState {
  async read(db: Knex): Promise<SyncCursor | undefined> {
    const row = await db(`${META_SCHEMA}.sync_state`).where({ id: 1 }).first();
    return row ? { height: Number(row.height), hash: row.hash, chainId: row.chain_id ?? undefined } : undefined;
  }

  async write(trx: Knex.Transaction, cursor: SyncCursor): Promise<void> {
    await trx(`${META_SCHEMA}.sync_state`)
      .insert({
        id: 1,
        height: cursor.height,
        hash: cursor.hash,
        chain_id: cursor.chainId ?? null,
        updated_at: new Date(),
      })
      .onConflict('id')
      .merge();
  }

  /** Our hash at a height, while it is still within the kept window. */
  async hashAt(db: Knex, height: number): Promise<string | undefined> {
    const row = await db(`${META_SCHEMA}.block_hashes`).where({ height }).first();
    return row?.hash;
  }
}
