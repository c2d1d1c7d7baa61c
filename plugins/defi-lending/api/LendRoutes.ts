import { Catalog, Database, RouteRegistry } from '../../../framework';
import { type UsdQuotes, DexTable, PoolRecords, TokenBook } from '../../../framework/defi';
import { lendBook, LendInfo } from './LendBook';
import { lendEventRecord, lendPoolRecord, lendPositionRecord } from './LendRecords';

/**
 * The code behind the lending part of the TzPro API (`/v1/lend…`, `/v1/wallets/{addr}/lend_…`),
 * whose routes are declared in tables.yaml (defi-lending `routes:`): the lending pool of a path (400
 * malformed, 404 unknown) and the records shaped as the SDK's structs, with their pool's tokens and
 * USD values.
 */
export class LendRoutes {
  private readonly records: PoolRecords<LendInfo>;

  constructor(db: Database, catalog: Catalog, quotes?: UsdQuotes) {
    this.records = new PoolRecords<LendInfo>(
      lendBook(new DexTable(db, catalog.require('lend_pool')), new TokenBook(db, catalog)),
      quotes,
    );
  }

  register(r: RouteRegistry): void {
    r.shapers.key('lend_pool', this.records.key);
    r.shapers.record('lend_pool', this.records.poolRecords(lendPoolRecord));
    r.shapers.record('lend_event', this.records.rowRecords(lendEventRecord));
    r.shapers.record('lend_position', this.records.rowRecords(lendPositionRecord));
  }
}
