import { Catalog, Database, explorerObject, RouteDoc, RouteRegistry } from '../../../framework';
import type { UsdQuotes } from '../../defi-dex/core/UsdQuotes';
import { DexTable } from '../../defi-dex/api/DexTable';
import { both, byWallet, inPool, LIST_QUERY, openOnly, PoolLists, WALLET_PARAM } from '../../defi-dex/api/PoolLists';
import { TokenBook } from '../../defi-dex/api/TokenBook';
import { FarmBook, farmBook, FarmInfo } from './FarmBook';
import { farmEventRecord, farmPositionRecord, farmRecord } from './FarmRecords';

const FARM_PARAM: RouteDoc['params'] = { table: 'farm_pool', columns: { pool: 'pool' } };

/**
 * The farm part of the TzPro API (`/v1/farm…`, `/v1/wallets/{addr}/farm_…`) over the defi-farm
 * tables: the list profile and `<field>[.op]=value` filters of framework/query, with the SDK's names
 * (`block`, `open_block`, `address`…) mapped onto the columns; records shaped as the SDK's structs.
 */
export class FarmRoutes {
  private readonly farms: FarmBook;
  private readonly lists: PoolLists<FarmInfo>;
  private readonly events: DexTable;
  private readonly positions: DexTable;

  constructor(db: Database, catalog: Catalog, quotes?: UsdQuotes) {
    this.farms = farmBook(
      new DexTable(db, catalog.require('farm_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
      ]),
      new TokenBook(db, catalog),
    );
    this.events = new DexTable(db, catalog.require('farm_event'), [{ name: 'block', aliasOf: 'height' }, { name: 'address', anyOf: ['signer', 'sender', 'receiver'] }]);
    this.positions = new DexTable(db, catalog.require('farm_position'), [
      { name: 'open_block', aliasOf: 'open_height' },
      { name: 'close_block', aliasOf: 'close_height' },
      { name: 'address', aliasOf: 'owner' },
    ]);
    const book = this.farms;
    this.lists = new PoolLists<FarmInfo>({ require: (pool) => book.require(pool), infos: (keys) => book.infos(keys), unknown: (row) => book.unknown(row) }, quotes);
  }

  register(r: RouteRegistry): void {
    // Fixed paths before `/v1/farm/:pool`, which would match them too.
    explorerObject(r, '/v1/farm', 'ListFarms', async (ctx) => {
      const rows = await this.lists.page(ctx, this.farms.table, []);
      const usd = this.lists.usd();
      return { body: await Promise.all([...(await this.farms.withTokens(rows)).values()].map((p) => farmRecord(p, usd))) };
    }, { summary: 'staking farms', query: LIST_QUERY });
    this.lists.list(r, '/v1/farm/events', 'ListFarmEvents', this.events, farmEventRecord, [], 'farm events');
    this.lists.list(r, '/v1/farm/positions', 'ListFarmPositions', this.positions, farmPositionRecord, ['with_closed'], 'farm positions', openOnly);
    explorerObject(r, '/v1/farm/:pool', 'GetFarm', async (ctx) => ({ body: await farmRecord(await this.farms.require(ctx.params.pool), this.lists.usd()) }), { summary: 'a staking farm', params: FARM_PARAM });
    this.lists.list(r, '/v1/farm/:pool/events', 'ListFarmPoolEvents', this.events, farmEventRecord, [], "the farm's events", inPool, FARM_PARAM);
    this.lists.list(r, '/v1/farm/:pool/positions', 'ListFarmPoolPositions', this.positions, farmPositionRecord, ['with_closed'], "the farm's positions", both(inPool, openOnly), FARM_PARAM);
    this.lists.list(r, '/v1/wallets/:addr/farm_events', 'ListWalletFarmEvents', this.events, farmEventRecord, [], "the wallet's farm events", byWallet(['signer', 'sender', 'receiver']), WALLET_PARAM);
    this.lists.list(r, '/v1/wallets/:addr/farm_positions', 'ListWalletFarmPositions', this.positions, farmPositionRecord, ['with_closed'], "the wallet's farm positions", both(byWallet(['owner']), openOnly), WALLET_PARAM);
  }
}
