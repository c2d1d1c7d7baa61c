import type { Knex } from 'knex';
import { columnSql, type TableDef, type TableReader } from '../../framework';

/** One live key of a bigmap: its hash and the key and value as hex binary Micheline. */
export interface LiveEntry {
  hash: string;
  key: string;
  value: string;
}

const hex = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v));

/**
 * The live keys of permanent bigmaps as the blocks of the batch in progress left them: the
 * bigmap_values table (as of the batch's start) overlaid with the batch's changes. bigmap_values
 * itself is written from bigmap_updates when the batch ends (BigmapValueTable), so one of these
 * lives for one batch.
 */
export class LiveValues {
  /** Per bigmap: hash → entry, or null for a key known to be absent. */
  private readonly maps = new Map<number, Map<string, LiveEntry | null>>();
  /** Bigmaps whose every live key is in `maps` (loaded whole, or created or emptied in this batch). */
  private readonly complete = new Set<number>();

  /** `(bigmap_id, hash)` among the pairs of two arrays. */
  private readonly pairsIn: string;

  constructor(
    private readonly read: TableReader,
    private readonly table: TableDef,
  ) {
    const [id, hash] = ['bigmap_id', 'hash'].map((name) => table.column(name)!);
    this.pairsIn = `(${columnSql(id)}, ${columnSql(hash)}) in (select * from unnest(?::${id.type.sqlType}[], ?::${hash.type.sqlType}[]))`;
  }

  /** Reads the given keys of the database in few queries (when the batch opens: BigmapIndexer.readAhead). */
  async preload(keys: Iterable<{ bigmapId: number; hash: string }>): Promise<void> {
    const missing = new Map<string, [number, string]>();
    for (const { bigmapId, hash } of keys) {
      if (this.complete.has(bigmapId) || this.maps.get(bigmapId)?.has(hash)) continue;
      missing.set(`${bigmapId}:${hash}`, [bigmapId, hash]);
    }
    const pairs = [...missing.values()];
    for (let i = 0; i < pairs.length; i += 5000) {
      const chunk = pairs.slice(i, i + 5000);
      // The pairs as two array parameters, one index probe each. (Two IN lists would probe every id
      // with every hash, and a long row-value IN list `(a, b) in ((…), …)` breaks PGlite's transaction
      // state from ~280 pairs on.)
      const rows = await this.rows().whereRaw(this.pairsIn, [
        chunk.map(([bigmapId]) => bigmapId),
        chunk.map(([, hash]) => hash),
      ]);
      for (const [bigmapId, hash] of chunk) this.mapOf(bigmapId).set(hash, null);
      for (const r of rows) this.mapOf(Number(r.bigmap_id)).set(r.hash, entryOf(r));
    }
  }

  async get(bigmapId: number, hash: string): Promise<LiveEntry | undefined> {
    await this.preload([{ bigmapId, hash }]);
    return this.maps.get(bigmapId)?.get(hash) ?? undefined;
  }

  set(bigmapId: number, entry: LiveEntry): void {
    this.mapOf(bigmapId).set(entry.hash, entry);
  }

  remove(bigmapId: number, hash: string): void {
    this.mapOf(bigmapId).set(hash, null);
  }

  /** Every live key of a bigmap, in hash order (the order copies and removals list them in). */
  async entries(bigmapId: number): Promise<LiveEntry[]> {
    const map = this.mapOf(bigmapId);
    if (!this.complete.has(bigmapId)) {
      for (const r of await this.rows().where('bigmap_id', bigmapId)) if (!map.has(r.hash)) map.set(r.hash, entryOf(r));
      this.complete.add(bigmapId);
    }
    return [...map.values()]
      .filter((e): e is LiveEntry => e !== null)
      .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  }

  /** A bigmap that has no keys from now on (allocated, or removed): the database is not asked about it again. */
  empty(bigmapId: number): void {
    this.maps.set(bigmapId, new Map());
    this.complete.add(bigmapId);
  }

  private mapOf(bigmapId: number): Map<string, LiveEntry | null> {
    let map = this.maps.get(bigmapId);
    if (!map) this.maps.set(bigmapId, (map = new Map()));
    return map;
  }

  private rows(): Knex.QueryBuilder {
    return this.read(this.table).select('bigmap_id', 'hash', 'key', 'value');
  }
}

function entryOf(r: { hash: string; key: unknown; value: unknown }): LiveEntry {
  return { hash: r.hash, key: hex(r.key), value: hex(r.value) };
}
