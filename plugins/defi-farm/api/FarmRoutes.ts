import { Catalog, Database, RouteRegistry } from '../../../framework';
import { type UsdQuotes, DexTable, PoolRecords, TokenBook } from '../../../framework/defi';
import { farmBook, FarmInfo } from './FarmBook';
import { farmEventRecord, farmPositionRecord, farmRecord } from './FarmRecords';

/**
 * The code behind the farm part of the TzPro API (`/v1/farm…`, `/v1/wallets/{addr}/farm_…`), whose
 * routes are declared in tables.yaml (defi-farm `routes:`): the farm of a path (400 malformed, 404
 * unknown) and the records shaped as the SDK's structs, with their farm's tokens and USD values.
 */
export class FarmRoutes {
  private readonly records: PoolRecords<FarmInfo>;

  constructor(db: Database, catalog: Catalog, quotes?: UsdQuotes) {
    this.records = new PoolRecords<FarmInfo>(
      farmBook(new DexTable(db, catalog.require('farm_pool')), new TokenBook(db, catalog)),
      quotes,
    );
  }

  register(r: RouteRegistry): void {
    r.shapers.key('farm', this.records.key);
    r.shapers.record('farm', this.records.poolRecords(farmRecord));
    r.shapers.record('farm_event', this.records.rowRecords(farmEventRecord));
    r.shapers.record('farm_position', this.records.rowRecords(farmPositionRecord));
  }
}
