import { Knex } from 'knex';
import { META_SCHEMA } from '../storage/SchemaMigrator';

/** One thing the indexer committed, as /stream sends it. Ids grow with every commit (one writer). */
export interface StreamEvent {
  readonly id: number;
  /** `block`, `operation`, `rollback`, or a plugin's event type (e.g. `dex_trade`). */
  readonly type: string;
  readonly height: number;
  readonly data: Record<string, unknown>;
}

export type NewStreamEvent = Omit<StreamEvent, 'id'>;

const TABLE = `${META_SCHEMA}.stream_events`;

/**
 * The recent window of stream events in the database, written in the indexer's transactions: it is
 * what every process (the indexer's and each `tzidx serve` replica) fans out, and what a client
 * resumes from with Last-Event-ID. Older events are pruned as new ones come.
 */
export const StreamLog = {
  channel: 'tzidx_stream',

  async migrate(db: Knex): Promise<void> {
    await db.raw(`create schema if not exists ??`, [META_SCHEMA]);
    await db.raw(
      `create table if not exists ??.stream_events (id bigserial primary key, height bigint not null, type text not null, data jsonb not null)`,
      [META_SCHEMA],
    );
  },

  async append(trx: Knex.Transaction, events: readonly NewStreamEvent[], keep: number): Promise<void> {
    for (let i = 0; i < events.length; i += 1000) {
      await trx(TABLE).insert(
        events.slice(i, i + 1000).map((e) => ({ height: e.height, type: e.type, data: JSON.stringify(e.data) })),
      );
    }
    await trx.raw(`delete from ${TABLE} where id <= (select max(id) from ${TABLE}) - ?`, [keep]);
  },

  async after(db: Knex, id: number, limit: number): Promise<StreamEvent[]> {
    const rows: Array<{ id: string; height: string; type: string; data: unknown }> = await db(TABLE)
      .where('id', '>', id)
      .orderBy('id')
      .limit(limit);
    return rows.map((r) => ({
      id: Number(r.id),
      height: Number(r.height),
      type: r.type,
      data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    }));
  },

  /** The highest id kept (0 when empty): where every commit's notification and poll start. */
  async newest(db: Knex): Promise<number> {
    const row = await db(TABLE).max('id as newest').first();
    return Number(row?.newest ?? 0);
  },

  /**
   * The lowest id kept (0 when empty), for a client resuming. Not asked for on every commit: the
   * window is pruned from its low end, so the index's first entries are those of deleted rows until
   * a vacuum, and finding the lowest live one visits each of them (max, at the other end, does not).
   */
  async oldest(db: Knex): Promise<number> {
    const row = await db(TABLE).min('id as oldest').first();
    return Number(row?.oldest ?? 0);
  },

  /** Operation hashes streamed for blocks above a height (what a rollback takes back). */
  async operationsAbove(trx: Knex.Transaction, height: number): Promise<string[]> {
    const rows: Array<{ hash: string }> = await trx(TABLE)
      .where('height', '>', height)
      .andWhere('type', 'operation')
      .select(trx.raw(`data->>'hash' as hash`))
      .orderBy('id');
    return [...new Set(rows.map((r) => r.hash).filter(Boolean))];
  },
};
