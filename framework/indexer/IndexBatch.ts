import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { tableCode } from '../catalog/TableHandle';
import { TableDef } from '../catalog/CatalogModel';
import { NormalizedBlock } from '../chain';
import { BulkWriter, Row } from '../storage/BulkWriter';
import { META_SCHEMA } from '../storage/SchemaMigrator';
import { EntityStates } from './EntityStates';
import { BlocksStartContext, IndexContext, NodeRpc } from './IndexContext';
import { BatchState } from './BatchState';
import { SharedValues } from './SharedValues';
import { tableReader, type TableReader } from './TableReader';
import { rowShape } from './RowShapes';
import { ContractDirectory } from './watch/ContractDirectory';

/**
 * Where a batch reads and when it writes its appended rows. Handlers read what committed before the
 * batch: the rows it appends are not theirs to read (mutable rows come from the entity stores), so
 * their queries may go to another connection than the transaction's. Then the transaction is free to
 * COPY appended rows while the next blocks are handled: on Postgres the server writes them (and their
 * indexes) on its own core while Node handles blocks, instead of both waiting for each other at the
 * batch's end.
 */
export interface BatchIo {
  /** Handlers' reads (`ctx.read`, entity lookups): the transaction, or a pool that sees the same rows. */
  reader: Knex;
  /** Appended rows waiting between two blocks that start a write ahead; 0: every row at the batch's end. */
  writeAheadRows: number;
}

/**
 * The writes of one transaction: up to `batch_blocks` blocks (near the head, those the node already has). Appended rows
 * are buffered per table and COPied, ahead between blocks (BatchIo) and the rest at the end; mutable rows are flushed
 * by the entity states; the journal and the block hashes are written with them.
 */
export class IndexBatch {
  private appends = new Map<TableDef, Row[]>();
  /** Appended rows in `appends`. */
  private buffered = 0;
  /** The write ahead in progress or failed (awaited by `flush`); undefined once it succeeded. */
  private writing?: Promise<void>;
  private readonly blocks: Array<{ level: number; hash: string; predecessor: string }> = [];
  private readonly read: TableReader;

  constructor(
    readonly trx: Knex.Transaction,
    private readonly catalog: Catalog,
    private readonly states: EntityStates,
    private readonly writer: BulkWriter,
    readonly mode: 'live' | 'backfill',
    private readonly contracts: ContractDirectory,
    private readonly state: BatchState,
    private readonly nodeRpc: NodeRpc,
    private readonly io: BatchIo,
  ) {
    this.read = tableReader(io.reader, catalog);
  }

  /** What batch-start hooks get: no block is open yet. */
  startContext(): BlocksStartContext {
    return {
      read: this.read,
      state: this.state,
      preload: (table, key, keys) => this.states.store(this.catalog.require(tableCode(table)), key).preload(keys),
    };
  }

  /** The context of the batch's next block, after letting the appended rows' writing go on (writeAhead). */
  async context(block: NormalizedBlock): Promise<IndexContext> {
    await this.writeAhead();
    this.states.beginBlock(block.level);
    this.blocks.push({ level: block.level, hash: block.hash, predecessor: block.predecessor });
    const node = (path: string): Promise<unknown> => this.nodeRpc(block.level, path);
    return {
      block,
      mode: this.mode,
      read: this.read,
      shared: new SharedValues(),
      state: this.state,
      append: (table, row) => this.append(tableCode(table), row, block.level),
      entities: (table, key) => this.states.store(this.catalog.require(tableCode(table)), key),
      node,
      watch: async (address, role) => {
        if (this.contracts.watches.roles(address).includes(role)) return;
        const types = await this.contracts.types(address, block, node);
        this.contracts.watches.add({ address, role, height: block.level, types });
      },
      watched: (address) => this.contracts.watches.roles(address),
    };
  }

  get size(): number {
    return this.blocks.length;
  }

  async flush(): Promise<void> {
    await this.writing;
    await this.writeAppends(this.takeAppends());
    await this.contracts.watches.flush(this.trx);
    const journal = await this.states.flush(this.writer);
    const lines = journal.map((j) => [
      j.height,
      j.table.code,
      j.rowId.toString(),
      j.preImage === null ? null : preImageJson(j.preImage),
    ]);
    await this.writer.appendValues(
      this.trx,
      META_SCHEMA,
      'journal',
      ['height', 'table_code', 'row_id', 'pre_image'],
      lines,
    );
    if (this.blocks.length > 0) {
      await this.trx(`${META_SCHEMA}.block_hashes`)
        .insert(this.blocks.map((b) => ({ height: b.level, hash: b.hash, predecessor: b.predecessor })))
        .onConflict('height')
        .merge();
    }
  }

  /**
   * A row's height is its block's: the rollback removes a block's rows by it, and the tables route
   * finds the first row id at a height by it (row ids grow with the height: TableQueryEngine).
   */
  private append(code: string, row: Row, level: number): bigint {
    const table = this.catalog.require(code);
    if (table.kind !== 'append') throw new Error(`table '${code}' is mutable: use entities()`);
    if (table.heightColumn) {
      const height = row[table.heightColumn];
      if (height === undefined) throw new Error(`a '${code}' row needs its height column '${table.heightColumn}'`);
      if (Number(height) !== level)
        throw new Error(
          `a '${code}' row of block ${level} has ${table.heightColumn} ${String(height)}: an appended row's height is its block's`,
        );
    }
    const id = this.states.allocate(table);
    const filled = rowShape(table).copy(row, id);
    if (table.orphanColumn && filled[table.orphanColumn] === undefined) filled[table.orphanColumn] = false;
    let rows = this.appends.get(table);
    if (!rows) this.appends.set(table, (rows = []));
    rows.push(filled);
    this.buffered++;
    return id;
  }

  /**
   * Between blocks: once `writeAheadRows` appended rows wait and no write is in progress, they are
   * COPied now, in the background, one write at a time and in order. A failed write leaves the
   * transaction failed: `flush` throws it (and a batch that fails earlier drops it with the transaction).
   * While a write is in progress, the event loop gets a few turns: handlers mostly read cached rows
   * and never wait on I/O, so without them the COPY's data went to the server only when a handler
   * happened to query, and most of a batch's rows were left for its end (see docs/performance.md).
   */
  private async writeAhead(): Promise<void> {
    if (this.io.writeAheadRows <= 0) return;
    if (this.buffered >= this.io.writeAheadRows && !this.writing) {
      const write = this.writeAppends(this.takeAppends());
      this.writing = write;
      write.then(
        () => {
          if (this.writing === write) this.writing = undefined;
        },
        () => undefined,
      );
    }
    for (let turn = 0; turn < WRITE_TURNS && this.writing; turn++)
      await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private takeAppends(): Map<TableDef, Row[]> {
    const taken = this.appends;
    this.appends = new Map();
    this.buffered = 0;
    return taken;
  }

  private async writeAppends(appends: Map<TableDef, Row[]>): Promise<void> {
    for (const [table, rows] of appends) await this.writer.append(this.trx, table, rows);
  }
}

/**
 * Event-loop turns given to a write in progress between two blocks. Measured over 1,000 mainnet-like
 * blocks (about 133,000 op rows): one turn left 46,000 op rows for the batches' ends, four 22,000,
 * sixteen 20,000 (none: 97,000).
 */
const WRITE_TURNS = 4;

/**
 * Journal pre-images are JSON: integers as strings, bytes as hex (not Node's `{type, data}` array form,
 * which is several times larger and slower for big bitsets), times as ISO.
 */
function preImageJson(row: Row): string {
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    flat[k] = v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : v;
  return JSON.stringify(flat, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
