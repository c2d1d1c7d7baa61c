import {
  ApiError,
  applyListRequest,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  explorerObject,
  metadataField,
  mutezToTez,
  parseAddress,
  parseTableRequest,
  RouteRegistry,
  timeOrZero,
  whereIndexedEquality,
} from '../../../framework';
import { ChainTableRead, ChainTables } from './ChainTables';
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
] as const;

type AccountRow = Pick<ChainTableRead<'account'>, (typeof ACCOUNT_FIELDS)[number]>;

/** `/explorer/account/{hash}`, its originated contracts and its operation history. */
export class AccountRoutes {
  private readonly accounts;

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
        const body: Record<string, unknown> = { ...account };
        // Times of events that never happened are Go's zero time, as Go clients decode them.
        for (const f of ACCOUNT_FIELDS) if (f.endsWith('_time')) body[f] = timeOrZero(account[f]);
        body.staked_balance = account.staked_balance ?? Number(mutezToTez(await this.stakerShare(account.row_id)));
        return { body: { ...body, ...metadataField(args.flag('meta'), account.address, account.baker) } };
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
        const q = applyListRequest(rows.query().where('creator', account.address), request);
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
        const id = Number((await this.account(ctx.params.hash)).row_id);
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
  private async stakerShare(rowId: number | bigint): Promise<bigint> {
    const t = this.tables.def('account');
    const { db } = this.tables;
    const [row] = await db.selectRows(
      db.reader
        .withSchema(t.schema)
        .from(`${t.storage} as a`)
        .join(`${t.storage} as b`, 'b.row_id', 'a.baker_id')
        .where('a.row_id', String(rowId))
        .select(db.reader.raw('a.stake_shares::text, b.staker_pool::text, b.stake_shares_total::text'))
        .limit(1),
    );
    if (!row) return 0n;
    const [shares, pool, total] = row.map((v) => BigInt(v ?? 0));
    return total === 0n ? 0n : (shares * pool) / total;
  }

  /** The account row of an address (400/1301 when malformed, 404/1305 when never seen). */
  private async account(raw: string): Promise<AccountRow> {
    const account = await this.accounts.first(this.accounts.query().where('address', parseAddress(raw)));
    if (!account) throw ApiError.notFound('no such account');
    return account;
  }
}
