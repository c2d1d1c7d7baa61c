import { Catalog, Database, explorerObject, RouteDoc, RouteRegistry } from '../../../framework';
import type { UsdQuotes } from '../../defi-dex/core/UsdQuotes';
import { DexTable } from '../../defi-dex/api/DexTable';
import { both, byWallet, inPool, LIST_QUERY, openOnly, PoolLists, WALLET_PARAM } from '../../defi-dex/api/PoolLists';
import { TokenBook } from '../../defi-dex/api/TokenBook';
import { LendBook, lendBook, LendInfo } from './LendBook';
import { lendEventRecord, lendPoolRecord, lendPositionRecord } from './LendRecords';

const POOL_PARAM: RouteDoc['params'] = { table: 'lend_pool', columns: { pool: 'pool' } };

/**
 * The lending part of the TzPro API (`/v1/lend…`, `/v1/wallets/{addr}/lend_…`) over the defi-lending
 * tables: the list profile and `<field>[.op]=value` filters of framework/query, with the SDK's names
 * (`block`, `open_block`, `address`…) mapped onto the columns; records shaped as the SDK's structs.
 */
export class LendRoutes {
  private readonly pools: LendBook;
  private readonly lists: PoolLists<LendInfo>;
  private readonly events: DexTable;
  private readonly positions: DexTable;

  constructor(db: Database, catalog: Catalog, quotes?: UsdQuotes) {
    this.pools = lendBook(
      new DexTable(db, catalog.require('lend_pool'), [
        { name: 'block', aliasOf: 'first_height' },
        { name: 'first_block', aliasOf: 'first_height' },
        { name: 'time', aliasOf: 'first_time' },
      ]),
      new TokenBook(db, catalog),
    );
    this.events = new DexTable(db, catalog.require('lend_event'), [{ name: 'block', aliasOf: 'height' }, { name: 'address', anyOf: ['owner', 'signer', 'sender', 'receiver'] }]);
    this.positions = new DexTable(db, catalog.require('lend_position'), [
      { name: 'open_block', aliasOf: 'open_height' },
      { name: 'close_block', aliasOf: 'close_height' },
      { name: 'address', aliasOf: 'owner' },
    ]);
    const book = this.pools;
    this.lists = new PoolLists<LendInfo>({ require: (pool) => book.require(pool), infos: (keys) => book.infos(keys), unknown: (row) => book.unknown(row) }, quotes);
  }

  register(r: RouteRegistry): void {
    // Fixed paths before `/v1/lend/:pool`, which would match them too.
    explorerObject(r, '/v1/lend', 'ListLendingPools', async (ctx) => {
      const rows = await this.lists.page(ctx, this.pools.table, []);
      const usd = this.lists.usd();
      return { body: await Promise.all([...(await this.pools.withTokens(rows)).values()].map((p) => lendPoolRecord(p, usd))) };
    }, { summary: 'lending pools', query: LIST_QUERY });
    this.lists.list(r, '/v1/lend/events', 'ListLendingEvents', this.events, lendEventRecord, [], 'lending events');
    this.lists.list(r, '/v1/lend/positions', 'ListLendingPositions', this.positions, lendPositionRecord, ['with_closed'], 'lending positions', openOnly);
    explorerObject(r, '/v1/lend/:pool', 'GetLendingPool', async (ctx) => ({ body: await lendPoolRecord(await this.pools.require(ctx.params.pool), this.lists.usd()) }), { summary: 'a lending pool', params: POOL_PARAM });
    this.lists.list(r, '/v1/lend/:pool/events', 'ListLendingPoolEvents', this.events, lendEventRecord, [], "the lending pool's events", inPool, POOL_PARAM);
    this.lists.list(r, '/v1/lend/:pool/positions', 'ListLendingPoolPositions', this.positions, lendPositionRecord, ['with_closed'], "the lending pool's positions", both(inPool, openOnly), POOL_PARAM);
    // A wallet's events are those of its positions (owner: the borrower of a liquidation) and those it took part in.
    this.lists.list(r, '/v1/wallets/:addr/lend_events', 'ListWalletLendingEvents', this.events, lendEventRecord, [], "the wallet's lending events", byWallet(['owner', 'signer', 'sender', 'receiver']), WALLET_PARAM);
    this.lists.list(r, '/v1/wallets/:addr/lend_positions', 'ListWalletLendingPositions', this.positions, lendPositionRecord, ['with_closed'], "the wallet's lending positions", both(byWallet(['owner']), openOnly), WALLET_PARAM);
  }
}
