import type { Knex } from 'knex';
import { ApiError, isValidAddress, isRecord } from '../../framework';
import { dbRow, from, jsRow, lockedNextRowId, PluginTables } from './PluginTables';

/** An entry as the API shows it: `address`, optional `asset_id`, then one object per schema name. */
export type Entry = Record<string, unknown> & { address: string; asset_id?: number };

/** The identity of an entry: an account (asset_id undefined) or a token of a contract. */
export interface EntryId {
  address: string;
  assetId?: number;
}

export const entryKey = (id: EntryId): string =>
  id.assetId === undefined ? id.address : `${id.address}_${id.assetId}`;

/** Namespaces of the "short" form (embedded lists): the original's selection. */
const SHORT = ['alias', 'asset', 'baker', 'payout', 'location', 'social'];

export interface ListQuery {
  limit: number;
  offset: number;
  cursor?: bigint;
  order: 'asc' | 'desc';
  short: boolean;
  /** JSON paths (namespace, field) that must equal a value: alias.kind, baker.status, … */
  filters: Array<{ ns: string; field: string; value: string }>;
}

/**
 * The API-written metadata entries (table `metadata`). They are not chain data: written in their own
 * transactions, never journaled, so reorgs leave them alone and restarts keep them.
 */
export class MetadataEntries {
  constructor(
    private readonly db: { reader: Knex; writer: Knex },
    private readonly tables: PluginTables,
  ) {}

  async get(id: EntryId, db: Knex | Knex.Transaction = this.db.reader): Promise<Entry | undefined> {
    const row = await from(db, this.tables.entries).where('entry_key', entryKey(id)).first();
    return row ? toEntry(jsRow(this.tables.entries, row)) : undefined;
  }

  /** Account entries (no asset id) of many addresses, for meta=1. */
  async forAddresses(addresses: readonly string[]): Promise<Entry[]> {
    if (addresses.length === 0) return [];
    const rows = await from(this.db.reader, this.tables.entries).whereIn('entry_key', [...addresses]);
    return rows.map((r: Record<string, unknown>) => toEntry(jsRow(this.tables.entries, r)));
  }

  async list(q: ListQuery): Promise<Entry[]> {
    let query = from(this.db.reader, this.tables.entries).orderBy('row_id', q.order).limit(q.limit).offset(q.offset);
    if (q.cursor !== undefined) query = query.where('row_id', q.order === 'asc' ? '>' : '<', q.cursor.toString());
    // Namespace and field names come from a fixed list (ListQuery is built by the route), values are bound.
    for (const f of q.filters) query = query.whereRaw(`content -> '${f.ns}' ->> '${f.field}' = ?`, [f.value]);
    const rows = await query;
    return rows.map((r: Record<string, unknown>) => {
      const e = toEntry(jsRow(this.tables.entries, r));
      return q.short ? shortEntry(e) : e;
    });
  }

  /** Creates or merges entries (namespaces of an existing entry not named stay), all or none. */
  async upsert(entries: readonly Entry[]): Promise<Entry[]> {
    return this.db.writer.transaction(async (trx) => {
      const out: Entry[] = [];
      for (const e of entries) {
        const id = idOf(e);
        const before = await this.get(id, trx);
        out.push(
          await this.write(trx, id, { ...(before ? contentOf(before) : {}), ...contentOf(e) }, before !== undefined),
        );
      }
      return out;
    });
  }

  /** Replaces an entry's content (creating it when missing). */
  async replace(entry: Entry): Promise<Entry> {
    return this.db.writer.transaction(async (trx) => {
      const id = idOf(entry);
      return this.write(trx, id, contentOf(entry), (await this.get(id, trx)) !== undefined);
    });
  }

  async remove(id: EntryId): Promise<boolean> {
    // The deleted rows' ids, not a count: PGlite's driver reports no row count.
    const gone = await from(this.db.writer, this.tables.entries)
      .where('entry_key', entryKey(id))
      .delete()
      .returning('row_id');
    return gone.length > 0;
  }

  async purge(): Promise<void> {
    await from(this.db.writer, this.tables.entries).delete();
  }

  private async write(
    trx: Knex.Transaction,
    id: EntryId,
    content: Record<string, unknown>,
    exists: boolean,
  ): Promise<Entry> {
    const t = this.tables.entries;
    const row = { content, updated_time: new Date() };
    if (exists) await from(trx, t).where('entry_key', entryKey(id)).update(dbRow(t, row));
    else {
      const rowId = await lockedNextRowId(trx, t);
      await trx
        .withSchema(t.schema)
        .table(t.storage)
        .insert(
          dbRow(t, {
            row_id: rowId,
            address: id.address,
            asset_id: id.assetId ?? null,
            entry_key: entryKey(id),
            ...row,
          }),
        );
    }
    return { address: id.address, ...(id.assetId !== undefined ? { asset_id: id.assetId } : {}), ...content };
  }
}

function toEntry(row: Record<string, unknown>): Entry {
  const assetId = row.asset_id === null || row.asset_id === undefined ? undefined : Number(row.asset_id);
  return {
    address: String(row.address),
    ...(assetId !== undefined ? { asset_id: assetId } : {}),
    ...(isRecord(row.content) ? row.content : {}),
  };
}

export function idOf(e: Entry): EntryId {
  return { address: e.address, ...(e.asset_id !== undefined ? { assetId: Number(e.asset_id) } : {}) };
}

export function contentOf(e: Entry): Record<string, unknown> {
  const { address: _a, asset_id: _i, ...content } = e;
  return content;
}

function shortEntry(e: Entry): Entry {
  const out: Entry = { address: e.address, ...(e.asset_id !== undefined ? { asset_id: e.asset_id } : {}) };
  for (const ns of SHORT) if (e[ns] !== undefined) out[ns] = e[ns];
  return out;
}

/** The entry of a request body: an object with a valid address and, for tokens, a non-negative integer asset_id. */
export function parseEntry(value: unknown, at: string): Entry {
  if (!isRecord(value)) throw ApiError.invalid(`metadata: ${at || '/'} must be an object`);
  const { address, asset_id: assetId } = value;
  // The checksum too: an entry stored under a mistyped address could not be read or changed again.
  if (typeof address !== 'string' || !ADDRESS.test(address) || !isValidAddress(address)) {
    throw ApiError.invalid(`metadata: ${at}/address must be a Tezos address (base58check)`);
  }
  if (assetId !== undefined && !(typeof assetId === 'number' && Number.isSafeInteger(assetId) && assetId >= 0)) {
    throw ApiError.invalid(`metadata: ${at}/asset_id must be a non-negative integer`);
  }
  // The members in the body's order (address and asset_id where the body has them).
  return { ...value, address, ...(assetId !== undefined ? { asset_id: assetId } : {}) };
}

export const ADDRESS = /^(tz[1-4]|KT1|txr1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/;
