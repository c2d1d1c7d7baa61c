import {
  ApiError,
  applyListRequest,
  CatalogRows,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  explorerObject,
  ExplorerRow,
  metadataField,
  mutezToTez,
  parseAddress,
  parseTableRequest,
  RouteRegistry,
  timeOrZero,
  whereIndexedEquality,
} from '../../../framework';
import { ChainTables } from './ChainTables';
import { ContractObjects } from './ContractObjects';
import { OperationPages } from './OperationPages';

/** Account object fields: the account table's columns in the original service's order (ids left out). */
const ACCOUNT_FIELDS = [
  'row_id',
  'address',
  'address_type',
  'pubkey',
  'counter',
  'baker',
  'creator',
  'first_in',
  'first_out',
  'last_in',
  'last_out',
  'first_seen',
  'last_seen',
  'delegated_since',
  'first_in_time',
  'first_out_time',
  'last_in_time',
  'last_out_time',
  'first_seen_time',
  'last_seen_time',
  'delegated_since_time',
  'total_received',
  'total_sent',
  'total_burned',
  'total_fees_paid',
  'total_fees_used',
  'unclaimed_balance',
  'spendable_balance',
  'frozen_bond',
  'lost_bond',
  'staked_balance',
  'unstaked_balance',
  'lost_stake',
  'frozen_rewards',
  'is_funded',
  'is_activated',
  'is_delegated',
  'is_staked',
  'is_revealed',
  'is_baker',
  'is_contract',
  'n_tx_success',
  'n_tx_failed',
  'n_tx_out',
  'n_tx_in',
];

/** `/explorer/account/{hash}`, its originated contracts and its operation history. */
export class AccountRoutes {
  private readonly accounts: CatalogRows;

  constructor(
    private readonly tables: ChainTables,
    private readonly contracts: ContractObjects,
    private readonly pages: OperationPages,
  ) {
    this.accounts = tables.rows('account', ACCOUNT_FIELDS);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/account/:hash',
      'GetAccount',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['meta']);
        const account = await this.account(ctx.params.hash);
        // Times of events that never happened are Go's zero time, as Go clients decode them.
        for (const f of ACCOUNT_FIELDS) if (f.endsWith('_time')) account[f] = timeOrZero(account[f]);
        account.staked_balance ??= Number(mutezToTez(await this.stakerShare(account.row_id as number)));
        return { body: { ...account, ...metadataField(args.flag('meta'), account.address, account.baker) } };
      },
      { summary: 'an account', params: { table: 'account', columns: { hash: 'address' } } },
    );

    explorerObject(
      r,
      '/explorer/account/:hash/contracts',
      'ListAccountContracts',
      async (ctx) => {
        const account = await this.account(ctx.params.hash);
        const rows = this.contracts.rows;
        const args = new ExplorerArgs(ctx.query, ['meta']);
        const request = parseTableRequest(rows.table, args.rest, EXPLORER_LIST_PROFILE);
        const q = applyListRequest(rows.query().where('creator', account.address as string), request);
        return { body: await this.contracts.objects(await rows.read(q), args.flag('meta')) };
      },
      { summary: 'contracts an account created', params: { table: 'account', columns: { hash: 'address' } } },
    );

    explorerObject(
      r,
      '/explorer/account/:hash/operations',
      'ListAccountOperations',
      async (ctx) => {
        // By account id: the op table indexes its roles by id (sender_id…), not by address.
        const id = (await this.account(ctx.params.hash)).row_id as number;
        const body = await this.pages.list(ctx.query, {
          scopes: ['sender_id', 'receiver_id', 'creator_id', 'baker_id'].map(
            (role) => (q, order) => whereIndexedEquality(q, role, id, order),
          ),
          defaultOrder: 'desc',
          heightBounds: true,
        });
        return { body };
      },
      { summary: 'operations of an account, any role', params: { table: 'account', columns: { hash: 'address' } } },
    );
  }

  /**
   * What an external staker's pseudotokens are worth now: its share of its baker's pool (the node's
   * `staked_balance`), in mutez.
   */
  private async stakerShare(rowId: number): Promise<bigint> {
    const t = this.tables.def('account');
    const row = (await this.tables.db.reader
      .withSchema(t.schema)
      .from(`${t.storage} as a`)
      .join(`${t.storage} as b`, 'b.row_id', 'a.baker_id')
      .where('a.row_id', rowId)
      .first('a.stake_shares as shares', 'b.staker_pool as pool', 'b.stake_shares_total as total')) as
      { shares: string | number; pool: string | number; total: string | number } | undefined;
    if (!row || BigInt(row.total) === 0n) return 0n;
    return (BigInt(row.shares) * BigInt(row.pool)) / BigInt(row.total);
  }

  /** The account row of an address (400/1301 when malformed, 404/1305 when never seen). */
  private async account(raw: string): Promise<ExplorerRow> {
    const account = await this.accounts.first(this.accounts.query().where('address', parseAddress(raw)));
    if (!account) throw ApiError.notFound('no such account');
    return account;
  }
}
