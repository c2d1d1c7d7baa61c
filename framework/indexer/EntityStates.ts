import { Knex } from 'knex';
import { TableDef } from '../catalog/CatalogModel';
import { BulkWriter, Row } from '../storage/BulkWriter';
import { Entity, EntityStore } from './IndexContext';
import { rowShape, type RowShape } from './RowShapes';

/**
 * One journal line: what a block changed of a row, as it was before the block (null: the block
 * created it). Only the columns the block changed are kept: a rollback puts those back, newest block
 * first, and the row's other columns already hold what they held before the block.
 */
export interface JournalEntry {
  height: number;
  table: TableDef;
  rowId: bigint;
  preImage: Row | null;
}

/** What a store needs from the batch in progress. */
interface BatchSession {
  trx: Knex.Transaction;
  /** Lookups of rows not cached: the transaction, or a pool that sees the same rows (BatchIo). */
  reader: Knex;
  height: number;
  /** Near the head, changes are journaled so that a reorg can undo them. */
  journaling: boolean;
  journal: JournalEntry[];
}

/** Cached entities beyond this count are dropped after a flush (hot state stays bounded). */
const MAX_CACHED = 250_000;
/**
 * Nor may all stores' cached rows together take more than about this many bytes of heap: a count
 * alone does not bound rows that carry contract code or storage, and a long sync would keep every
 * contract it met. Past it, every store's cache is dropped after the flush and refills from the database.
 */
export const MAX_CACHED_BYTES = 128 * 2 ** 20;

/**
 * The mutable tables' rows as handlers see them: cached across blocks and batches, written once per
 * batch with a multi-row upsert, their pre-images journaled per block near the head. Row ids of new
 * rows (of every table) come from an in-memory counter per table: the indexer is the only writer.
 */
export class EntityStates {
  private readonly stores = new Map<string, CachedEntityStore>();
  private readonly nextIds = new Map<string, bigint>();
  private session?: BatchSession;

  constructor(private readonly maxCachedBytes = MAX_CACHED_BYTES) {}

  async beginBatch(
    trx: Knex.Transaction,
    journaling: boolean,
    tables: Iterable<TableDef>,
    reader: Knex = trx,
  ): Promise<void> {
    this.session = { trx, reader, height: 0, journaling, journal: [] };
    for (const t of tables) {
      if (this.nextIds.has(t.code)) continue;
      const [{ max }] = await trx.withSchema(t.schema).from(t.storage).max({ max: 'row_id' });
      this.nextIds.set(t.code, BigInt(max ?? 0) + 1n);
    }
  }

  beginBlock(height: number): void {
    const session = this.active();
    for (const s of this.stores.values()) s.endBlock(session);
    session.height = height;
  }

  store(table: TableDef, keyColumn: string): EntityStore {
    const id = `${table.code}\u0000${keyColumn}`;
    let s = this.stores.get(id);
    if (!s) {
      if (table.kind !== 'mutable') throw new Error(`table '${table.code}' is not mutable: use append()`);
      if (!table.column(keyColumn)) throw new Error(`table '${table.code}' has no column '${keyColumn}'`);
      s = new CachedEntityStore(
        table,
        keyColumn,
        () => this.active(),
        () => this.allocate(table),
      );
      this.stores.set(id, s);
    }
    return s;
  }

  /** Writes every changed row and the journal; call once at the end of the batch. */
  async flush(writer: BulkWriter): Promise<JournalEntry[]> {
    const session = this.active();
    for (const s of this.stores.values()) s.endBlock(session);
    await writer.mergeAll(
      session.trx,
      [...this.stores.values()].map((s) => ({ table: s.table, rows: s.takeChanged() })),
    );
    let cached = 0;
    for (const s of this.stores.values()) cached += s.cachedBytes;
    if (cached > this.maxCachedBytes) for (const s of this.stores.values()) s.evict();
    this.session = undefined;
    return session.journal;
  }

  /** Forgets everything cached: after a rollback or a failed batch the database is the truth again. */
  reset(): void {
    this.stores.clear();
    this.nextIds.clear();
    this.session = undefined;
  }

  /**
   * The next row id of any catalog table. The indexer numbers every row itself (sequences are not
   * transactional: a batch lost to a crash would leave gaps), so ids depend only on the chain.
   */
  allocate(table: TableDef): bigint {
    const id = this.nextIds.get(table.code);
    if (id === undefined) throw new Error(`table '${table.code}' was not prepared for this batch`);
    this.nextIds.set(table.code, id + 1n);
    return id;
  }

  private active(): BatchSession {
    if (!this.session) throw new Error('entity stores are used outside a batch');
    return this.session;
  }
}

class CachedEntityStore implements EntityStore {
  private readonly cache = new Map<string, Entity>();
  /** Rough heap bytes of the cached rows, as loaded or created (see MAX_CACHED_BYTES). */
  cachedBytes = 0;
  /**
   * Keys looked up and not found in this batch: rows are written at its end, so until then only an
   * insert through this store can create them (a batch's new keys cost one query, not one per get).
   */
  private readonly absent = new Set<string>();
  private readonly changed = new Map<bigint, Entity>();
  /**
   * Rows changed in the block in progress (when journaling), with the columns the block set as they
   * were before it (null: created). Only patched columns are kept, not a copy of the whole row.
   */
  private readonly thisBlock = new Map<bigint, { entity: Entity; before: Row | null }>();
  private readonly columns: ReadonlySet<string>;
  private readonly shape: RowShape;

  constructor(
    readonly table: TableDef,
    private readonly keyColumn: string,
    private readonly session: () => BatchSession,
    private readonly allocate: () => bigint,
  ) {
    this.columns = new Set(table.columns.map((c) => c.name));
    this.shape = rowShape(table);
  }

  /** Journals the block's changes: each row's changed columns as they were before the block. */
  endBlock(session: BatchSession): void {
    for (const [rowId, { entity, before }] of this.thisBlock) {
      const preImage = before === null ? null : changedColumns(before, entity);
      if (preImage === null || Object.keys(preImage).length > 0)
        session.journal.push({ height: session.height, table: this.table, rowId, preImage });
    }
    this.thisBlock.clear();
  }

  async get(key: string): Promise<Entity | undefined> {
    const hit = this.cache.get(key);
    if (hit || this.absent.has(key)) return hit;
    await this.preload([key]);
    return this.cache.get(key);
  }

  async preload(keys: Iterable<string>): Promise<void> {
    const missing = [...new Set(keys)].filter((k) => !this.cache.has(k) && !this.absent.has(k));
    for (let i = 0; i < missing.length; i += 5000) {
      const chunk = missing.slice(i, i + 5000);
      const rows: Row[] = await this.session()
        .reader.withSchema(this.table.schema)
        .from(this.table.storage)
        .whereIn(this.keyColumn, chunk);
      for (const k of chunk) this.absent.add(k);
      for (const raw of rows) {
        this.absent.delete(String(raw[this.keyColumn]));
        const entity = {} as Record<string, unknown>;
        for (const c of this.table.columns) entity[c.name] = c.type.fromDb(raw[c.name]);
        this.cache.set(String(raw[this.keyColumn]), entity as Entity);
        this.cachedBytes += approxBytes(entity);
      }
    }
  }

  insert(row: Row): Entity {
    const key = row[this.keyColumn];
    if (typeof key !== 'string') throw new Error(`insert into '${this.table.code}' needs a string '${this.keyColumn}'`);
    if (this.cache.has(key)) throw new Error(`'${this.table.code}' already has a row with ${this.keyColumn} '${key}'`);
    const entity = { ...row, row_id: this.allocate() } as Entity;
    this.absent.delete(key);
    this.record(entity, null);
    this.cache.set(key, entity);
    this.cachedBytes += approxBytes(entity);
    this.changed.set(entity.row_id, entity);
    return entity;
  }

  update(entity: Entity, patch: Row): void {
    if (this.cache.get(String(entity[this.keyColumn])) !== entity) {
      throw new Error(`update of a '${this.table.code}' row that did not come from this store`);
    }
    this.record(entity, patch);
    this.shape.assign(entity, patch);
    this.changed.set(entity.row_id, entity);
  }

  pending(): readonly Entity[] {
    return [...this.changed.values()];
  }

  /**
   * The rows changed since the last flush, for it to write; past MAX_CACHED the cache is dropped (the flush writes what
   * it took).
   */
  takeChanged(): Row[] {
    const rows = [...this.changed.values()];
    this.changed.clear();
    this.absent.clear();
    if (this.cache.size > MAX_CACHED) this.evict();
    return rows;
  }

  /** Forgets the cached rows (after a flush: the database holds them). */
  evict(): void {
    this.cache.clear();
    this.cachedBytes = 0;
  }

  /**
   * When journaling: what the columns a patch sets were before the block, the first time the block
   * sets each (`patch` null: the block created the row).
   */
  private record(entity: Entity, patch: Row | null): void {
    if (!this.session().journaling) return;
    let seen = this.thisBlock.get(entity.row_id);
    if (!seen) this.thisBlock.set(entity.row_id, (seen = { entity, before: patch === null ? null : {} }));
    const before = seen.before;
    if (before === null || patch === null) return;
    for (const k in patch) if (!(k in before) && this.columns.has(k)) before[k] = entity[k] ?? null;
  }
}

/** A cached row's heap size, roughly: a slot and a value per column, plus the text or bytes it holds. */
function approxBytes(row: Row): number {
  let bytes = 64;
  for (const k in row) {
    const v = row[k];
    bytes += 24;
    if (typeof v === 'string') bytes += v.length;
    else if (v instanceof Uint8Array) bytes += v.byteLength;
  }
  return bytes;
}

/** The columns whose value the block changed, with their `before` value (absent = null). */
function changedColumns(before: Row, after: Row): Row {
  const out: Row = {};
  for (const k in before) if (!sameValue(before[k], after[k] ?? null)) out[k] = before[k];
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}
