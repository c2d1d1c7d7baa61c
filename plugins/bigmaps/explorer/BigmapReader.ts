import type { Knex } from 'knex';
import {
  ApiError,
  applyListRequest,
  Catalog,
  CatalogRows,
  Database,
  TableDef,
  TableRequest,
  whereColumnIn,
} from '../../../framework';
import { coreChainTables, OuterSigners } from '../../core-chain';
import { type BigmapsRead, type BigmapUpdatesRead, tables as handles } from '../tables.generated';

const VALUE_COLUMNS = ['row_id', 'bigmap_id', 'key_id', 'height', 'key', 'value', 'hash', 'time'] as const;

/** A live key with its value, from bigmap_values (now) or bigmap_updates (an earlier block). */
export type ValueRead = Pick<BigmapUpdatesRead, (typeof VALUE_COLUMNS)[number]>;

/** Who made an update: the operation behind a bigmap_updates row. */
export interface UpdateOrigin {
  sender: string | null;
  source: string | null;
}

/**
 * The bigmaps plugin's reads. Live keys come from bigmap_values; the keys of an earlier block from
 * bigmap_updates (a key's latest update at or below that block, when it sets a value), rows of the
 * same shape: a value's row_id is the row_id of the update that wrote it in both.
 */
export class BigmapReader {
  readonly bigmaps;
  readonly values;
  readonly updates;
  private readonly historic;
  private readonly ops;
  private readonly outerSigners: OuterSigners;

  constructor(db: Database, catalog: Catalog) {
    const table = (code: string): TableDef => catalog.require(code);
    this.bigmaps = CatalogRows.of(db, table('bigmaps'), handles.bigmaps);
    this.values = CatalogRows.of(db, table('bigmap_values'), handles.bigmap_values, VALUE_COLUMNS);
    this.updates = CatalogRows.of(db, table('bigmap_updates'), handles.bigmap_updates);
    this.historic = CatalogRows.of(db, table('bigmap_updates'), handles.bigmap_updates, VALUE_COLUMNS);
    const opColumns = ['id', 'hash', 'height', 'op_n', 'is_internal', 'sender'] as const;
    this.ops = CatalogRows.of(db, table('op'), coreChainTables.op, opColumns);
    this.outerSigners = new OuterSigners(this.ops);
  }

  async bigmap(id: number): Promise<BigmapsRead> {
    const row = await this.bigmaps.first(this.bigmaps.query().where('bigmap_id', id));
    if (!row) throw ApiError.notFound('no such bigmap');
    return row;
  }

  /** A page of the keys live after block `height` (undefined: now), ordered and filtered by the request. */
  async valuePage(id: number, request: TableRequest, height?: number): Promise<ValueRead[]> {
    const q = applyListRequest(this.liveAt(id, height), request);
    return height === undefined ? this.values.read(q) : this.historic.read(q);
  }

  /** One key's value after block `height` (undefined: now). */
  async value(id: number, hash: string, height?: number): Promise<ValueRead | undefined> {
    const q = this.liveAt(id, height).where('hash', hash);
    return height === undefined ? this.values.first(q) : this.historic.first(q);
  }

  /** A page of a bigmap's updates (of one key when `hash` is given) in heights (since, upTo]. */
  async updatePage(
    id: number,
    request: TableRequest,
    bounds: { since?: number; upTo?: number; hash?: string },
  ): Promise<BigmapUpdatesRead[]> {
    const q = this.updates.query().where('bigmap_id', id);
    if (bounds.hash !== undefined) q.where('hash', bounds.hash);
    if (bounds.since !== undefined) q.where('height', '>', bounds.since);
    if (bounds.upTo !== undefined) q.where('height', '<=', bounds.upTo);
    return this.updates.read(applyListRequest(q, request));
  }

  /**
   * Sender and source (the signer of the group, for internal operations the sender of their outer content) of the
   * operations with these ids.
   */
  async origins(opIds: readonly number[]): Promise<Map<number, UpdateOrigin>> {
    const out = new Map<number, UpdateOrigin>();
    if (opIds.length === 0) return out;
    const ops = await this.ops.read(whereColumnIn(this.ops.query(), this.ops.table.column('id')!, [...new Set(opIds)]));
    const signers = await this.outerSigners.of(ops);
    for (const op of ops) {
      const source = op.is_internal ? (signers.get(op) ?? null) : op.sender;
      out.set(Number(op.id), { sender: op.sender, source });
    }
    return out;
  }

  private liveAt(id: number, height: number | undefined): Knex.QueryBuilder {
    if (height === undefined) return this.values.query().where('bigmap_id', id);
    const t = this.historic.table;
    return this.historic
      .query()
      .where({ bigmap_id: id, action: t.column('action')!.type.parse('update') })
      .where('height', '<=', height)
      .whereNotExists((sub) =>
        sub
          .select('later.row_id')
          .from(`${t.schema}.${t.storage} as later`)
          .whereRaw(
            'later.bigmap_id = ??.bigmap_id and later.hash = ??.hash and later.height <= ? and later.row_id > ??.row_id',
            [t.storage, t.storage, height, t.storage],
          ),
      );
  }
}
