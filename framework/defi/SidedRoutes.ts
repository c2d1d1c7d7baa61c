import type { TextRow } from '../index';
import type { AreaRoutes } from './DefiPlugin';
import { DexTable } from './DexTable';
import { PoolRecords, type PoolRecord, type RowRecord } from './PoolRecords';
import { SidedPoolBook, type SidedPool } from './SidedPoolBook';
import { TokenBook } from './TokenBook';

/**
 * The code behind a two-sided DeFi area's part of the TzPro API (farms: `/v1/farm…`, lending: `/v1/lend…`, and
 * their `/v1/wallets/{addr}/…` lists), whose routes are declared in tables.yaml: the pool of a path (400
 * malformed, 404 unknown) and the records shaped as the SDK's structs, with their pool's tokens and USD values.
 */
export interface SidedArea<S extends string> {
  /** The area's pool table (`farm_pool`). */
  readonly table: string;
  /** The route key of a pool path, also the record name of the pool rows (`farm`). */
  readonly key: string;
  /** The pool's two token sides, in the order of its columns (`stake`, `reward`). */
  readonly sides: readonly [S, S];
  /** The pool's name in errors (`farm`, `lending pool`). */
  readonly noun: string;
  /** Columns a row without its pool row shows besides its identity (e.g. a zero total). */
  readonly blank?: TextRow;
  readonly pool: PoolRecord<SidedPool<S>>;
  /** The records of the rows that name their pool (events, positions), by record name. */
  readonly rows: Readonly<Record<string, RowRecord<SidedPool<S>>>>;
}

/** An area's key resolver and record shapers; USD values from the quotes. */
export const sidedRoutes =
  <S extends string>(area: SidedArea<S>): AreaRoutes =>
  (db, catalog, quotes) => {
    const pools = new DexTable(db, catalog.require(area.table));
    const book = new SidedPoolBook(pools, new TokenBook(db, catalog), area.sides, area.noun, area.blank);
    const records = new PoolRecords<SidedPool<S>>(book, quotes);
    return (r) => {
      r.shapers.key(area.key, records.key);
      r.shapers.record(area.key, records.poolRecords(area.pool));
      for (const [name, record] of Object.entries(area.rows)) r.shapers.record(name, records.rowRecords(record));
    };
  };
