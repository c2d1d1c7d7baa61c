import { ApiError, BlockId, CatalogRows, ChainState, parseBlockId } from '../../../framework';
import { ChainTables, ChainTableRead } from './ChainTables';

/** What other objects need to know about a block: where it is and when. */
export interface BlockRef {
  hash: string;
  height: number;
  cycle: number;
  time: string;
  protocol: string;
  is_orphan: boolean;
}

const REF_COLUMNS = ['hash', 'height', 'cycle', 'time', 'protocol', 'is_orphan'] as const;

/**
 * Finds blocks by explorer id. Heights and `head` name main-chain blocks only; a hash may name an
 * orphan (a block a reorg took off the main chain), which then says so in `is_orphan`.
 */
export class BlockLookup {
  private readonly refs;

  constructor(
    tables: ChainTables,
    private readonly chain: ChainState,
  ) {
    this.refs = tables.rows('block', REF_COLUMNS);
  }

  /** The newest main-chain block, or undefined before the first block is indexed. */
  async head(): Promise<BlockRef | undefined> {
    return blockRef(await this.refs.first(this.refs.query().where('is_orphan', false).orderBy('height', 'desc')));
  }

  /** The head height the indexer (or, on replicas, the sync follower) last announced; the table when none did. */
  async headHeight(): Promise<number> {
    return this.chain.height ?? (await this.head())?.height ?? 0;
  }

  /** The block row (selected columns of `rows`) an explorer id names, or undefined. */
  async find<R extends object>(id: BlockId, rows: CatalogRows<R>): Promise<R | undefined> {
    const q = rows.query();
    if (id.kind === 'hash') return rows.first(q.where('hash', id.hash).orderBy('is_orphan'));
    const mainChain = q.where('is_orphan', false);
    if (id.kind === 'height') return rows.first(mainChain.where('height', id.height));
    return rows.first(mainChain.orderBy('height', 'desc'));
  }

  async ref(id: BlockId): Promise<BlockRef | undefined> {
    return blockRef(await this.find(id, this.refs));
  }

  /** A block id from a query parameter (`since`, `block`): malformed is a bad query, unknown a 404. */
  async heightParam(name: string, raw: string): Promise<number> {
    let id: BlockId;
    try {
      id = parseBlockId(raw);
    } catch {
      throw ApiError.badQuery(`invalid ${name} '${raw}': expected a block hash, height or head`);
    }
    if (id.kind === 'height') return id.height;
    const ref = await this.ref(id);
    if (!ref) throw ApiError.notFound(`no such block '${raw}'`);
    return ref.height;
  }
}

/** A block row's place and time, heights as numbers. */
function blockRef(row: Pick<ChainTableRead<'block'>, (typeof REF_COLUMNS)[number]> | undefined): BlockRef | undefined {
  if (!row) return undefined;
  const { hash, height, cycle, time, protocol, is_orphan } = row;
  return { hash, height: Number(height), cycle: Number(cycle), time, protocol, is_orphan };
}
