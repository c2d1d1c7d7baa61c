import { Knex } from 'knex';
import { META_SCHEMA } from '../storage/SchemaMigrator';

export interface SyncCursor {
  height: number;
  hash: string;
  chainId?: string;
  /**
   * What the indexer tells API clients of the head (ChainState: protocol header, head-relative cache
   * lifetimes, finality), kept here for `tzidx serve` replicas. A rollback leaves them as they were,
   * as it leaves the indexer's own.
   */
  head?: { protocol?: string; time?: number; blockInterval?: number; finalDepth: number };
}

/** The last block whose writes committed; written in the same transaction as those writes. */
export class SyncState {
  async read(db: Knex): Promise<SyncCursor | undefined> {
    const row = await db(`${META_SCHEMA}.sync_state`).where({ id: 1 }).first();
    if (!row) return undefined;
    const head =
      row.final_depth === null || row.final_depth === undefined
        ? undefined
        : {
            protocol: row.protocol ?? undefined,
            time: row.head_time === null ? undefined : Number(row.head_time),
            blockInterval: row.block_interval === null ? undefined : Number(row.block_interval),
            finalDepth: Number(row.final_depth),
          };
    return { height: Number(row.height), hash: row.hash, chainId: row.chain_id ?? undefined, head };
  }

  async write(trx: Knex.Transaction, cursor: SyncCursor): Promise<void> {
    const { head } = cursor;
    await trx(`${META_SCHEMA}.sync_state`)
      .insert({
        id: 1,
        height: cursor.height,
        hash: cursor.hash,
        chain_id: cursor.chainId ?? null,
        updated_at: new Date(),
        ...(head
          ? {
              protocol: head.protocol ?? null,
              head_time: head.time ?? null,
              block_interval: head.blockInterval ?? null,
              final_depth: head.finalDepth,
            }
          : {}),
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
