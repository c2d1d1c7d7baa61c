import {
  ApiError,
  applyListRequest,
  Catalog,
  CatalogRows,
  Database,
  ErrorCode,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  explorerObject,
  ExplorerRow,
  mutezToTez,
  ownMetadataField,
  parseAddress,
  tezToMutez,
  parseTableRequest,
  type ReadOf,
  RouteRegistry,
  timeOrZero,
  asRecords,
  bigOrZero,
} from '../../../framework';
import { coreChainTables } from '../../core-chain';

import { BakerActivity } from './BakerActivity';
import { bakerCapacity, CapacityResult } from './BakerCapacity';
import { BakerState } from './BakerState';
import { DepositsLimits } from './DepositsLimits';
import { newestConstants } from './NewestConstants';

const FIELDS = [
  'row_id',
  'address',
  'baker',
  'spendable_balance',
  'staked_balance',
  'unstaked_balance',
  'frozen_bond',
  'staker_pool',
  'is_baker',
  'delegated_since_time',
  'first_seen_time',
] as const;

/**
 * index.Baker keys null unless the newest stake snapshot tells them (BakerState: grace period,
 * consensus key, staking parameters, baking power and network share) or the capacity rules can be
 * applied (BakerCapacity), or not tracked at all (version): null, never invented.
 */
const UNTRACKED = [
  'consensus_key',
  'consensus_address',
  'grace_period',
  'baker_version',
  'staking_edge',
  'staking_limit',
  'baking_power',
  'network_share',
];

/** Suggestions a page, as the original (20 by default, up to 100). */
const SUGGEST_LIMIT = { default: 20, max: 100 };

/** The account columns a baker object is built from. */
type Row = Pick<ReadOf<typeof coreChainTables.account>, (typeof FIELDS)[number]>;
const tez = (v: unknown): bigint => tezToMutez(String(v ?? 0));

/**
 * `/explorer/bakers` and `/explorer/bakers/{hash}` as the SDK's index.Baker, from core-chain's account
 * table (balances, own stake and the external stakers' pool from the receipts), the newest stake
 * snapshot (what the node told of the baker then) and the income rows (stats, events).
 */
export class BakerRoutes {
  private readonly accounts;
  private readonly activity: BakerActivity;
  private readonly state: BakerState;
  private readonly limits: DepositsLimits;

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {
    this.accounts = CatalogRows.of(db, catalog.require('account'), coreChainTables.account, FIELDS);
    this.activity = new BakerActivity(db, catalog);
    this.state = new BakerState(db, catalog);
    this.limits = new DepositsLimits(db, catalog);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/bakers',
      'ListBakers',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['meta', 'suggest', 'active', 'status']);
        const status = args.get('status');
        if (status !== undefined && status !== 'active' && status !== 'inactive')
          throw ApiError.badQuery(`invalid status '${status}': expected active or inactive`);
        const request = parseTableRequest(this.accounts.table, args.rest, EXPLORER_LIST_PROFILE);
        const suggest = args.get('suggest');
        if (suggest !== undefined)
          return {
            body: await this.suggest(
              parseAddress(suggest),
              args.rest.limit === undefined ? SUGGEST_LIMIT.default : Math.min(request.limit, SUGGEST_LIMIT.max),
              args.flag('meta'),
            ),
          };
        const q = this.accounts.query().where('is_baker', true);
        // Without grace-period tracking, "active" means a registered baker that still holds tez.
        if (args.flag('active') || status === 'active') q.where('spendable_balance', '>', 0);
        if (status === 'inactive') q.where('spendable_balance', '=', 0);
        const rows = await this.accounts.read(applyListRequest(q, request));
        return { body: (await this.bakers(rows, args.flag('meta'))).map((b) => b.body) };
      },
      {
        summary: 'registered bakers, 20 a page (up to 500)',
        query: [
          {
            name: 'suggest',
            description: 'an account: active bakers with room for its balance (not full), 20 a page (up to 100)',
            schema: { type: 'string' },
          },
          { name: 'active', description: 'only bakers with a balance (1/true)', schema: { type: 'boolean' } },
          {
            name: 'status',
            description: '`active` (as active=1) or `inactive` (no balance left)',
            schema: { type: 'string', enum: ['active', 'inactive'] },
          },
        ],
      },
    );

    explorerObject(
      r,
      '/explorer/bakers/:hash',
      'GetBaker',
      async (ctx) => {
        const address = parseAddress(ctx.params.hash);
        const row = await this.accounts.first(this.accounts.query().where({ address, is_baker: true }));
        if (!row) throw ApiError.notFound(`no baker ${address}`);
        const meta = new ExplorerArgs(ctx.query, ['meta']).flag('meta');
        const [{ body }] = await this.bakers([row], meta);
        // meta=1 keeps its statistics and adds its events (the original's full mode);
        // list items always have statistics.
        if (meta) Object.assign(body, { events: await this.activity.events(address) });
        else delete body.stats;
        return { body };
      },
      { summary: 'a baker', params: { table: 'rights', columns: { hash: 'address' } } },
    );
  }

  /**
   * The original's `suggest`: active bakers that are not full and can take the account's balance as
   * delegation without going over their delegation capacity (its own baker left out). 404 for an
   * unknown, empty or baker account.
   */
  private async suggest(address: string, limit: number, meta: boolean): Promise<ExplorerRow[]> {
    const account = await this.accounts.first(this.accounts.query().where({ address }));
    if (!account) throw ApiError.notFound(`no such account ${address}`);
    const balance = tez(account.spendable_balance) + tez(account.unstaked_balance) + tez(account.frozen_bond);
    if (balance === 0n) throw new ApiError(404, ErrorCode.RESOURCE_CONFLICT, 'account is not funded');
    if (account.is_baker) throw new ApiError(404, ErrorCode.RESOURCE_CONFLICT, 'account is not delegatable');
    const rows = await this.accounts.read(
      this.accounts.query().where('is_baker', true).where('spendable_balance', '>', 0).orderBy('row_id'),
    );
    const fit = (await this.bakers(rows, meta)).filter(
      (b) =>
        b.body.is_active !== false &&
        b.body.address !== account.baker &&
        b.capacity.figures.is_full === false &&
        b.capacity.room !== null &&
        b.capacity.room >= balance,
    );
    return fit.slice(0, limit).map((b) => b.body);
  }

  /** Baker objects of account rows, with their statistics, and the capacity behind their figures. */
  private async bakers(rows: Row[], meta: boolean): Promise<Array<{ body: ExplorerRow; capacity: CapacityResult }>> {
    const addresses = rows.map((b) => b.address);
    const constants = await newestConstants(this.db, this.catalog);
    const [delegations, stats, states, limits] = await Promise.all([
      this.delegations(addresses),
      this.activity.stats(addresses),
      this.state.of(addresses),
      this.limits.of(addresses, constants),
    ]);
    return rows.map((row) => {
      const address = row.address;
      const state = states.get(address);
      const d = delegations.get(address);
      const limit = state?.staking_limit;
      const capacity = bakerCapacity(constants, {
        own: tez(row.staked_balance),
        external: tez(row.staker_pool),
        liquid: tez(row.spendable_balance) + tez(row.unstaked_balance) + tez(row.frozen_bond),
        delegated: d?.held ?? 0n,
        stakingLimit: limit === null || limit === undefined ? null : bigOrZero(limit),
        depositsLimit: limits.get(address) ?? null,
      });
      // List items always carry their statistics, as the original's.
      return {
        body: { ...this.baker(row, d, meta, state), ...capacity.figures, stats: stats.get(address) ?? null },
        capacity,
      };
    });
  }

  /**
   * Accounts delegating to each baker (itself excluded): funded ones with their balance, those
   * holding its staking pseudotokens, and the tez of all that are not staked (spendable, unstake
   * requests, rollup bonds: what counts as delegated to it); one query for a page.
   */
  private async delegations(bakers: readonly string[]): Promise<Map<string, Delegation>> {
    const out = new Map<string, Delegation>();
    if (bakers.length === 0) return out;
    const t = this.accounts.table;
    const knex = this.db.reader;
    const rows = asRecords(
      await knex
        .withSchema(t.schema)
        .from(t.storage)
        .whereIn('baker', bakers)
        .whereRaw('address <> baker')
        .where((w) =>
          w
            .where('spendable_balance', '>', 0)
            .orWhere('stake_shares', '>', 0)
            .orWhere('unstaked_balance', '>', 0)
            .orWhere('frozen_bond', '>', 0),
        )
        .groupBy('baker')
        .select(
          'baker',
          knex.raw('sum(case when spendable_balance > 0 then 1 else 0 end) as n'),
          knex.raw('sum(spendable_balance) as balance'),
          knex.raw('sum(case when stake_shares > 0 then 1 else 0 end) as stakers'),
          knex.raw('sum(spendable_balance + unstaked_balance + frozen_bond) as held'),
        ),
    );
    const big = (v: unknown): bigint => BigInt(String(v ?? 0).split('.')[0]);
    for (const r of rows)
      out.set(String(r.baker), {
        n: Number(r.n),
        balance: big(r.balance),
        stakers: Number(r.stakers),
        held: big(r.held),
      });
    return out;
  }

  /** One baker: its balances, its stake and what delegates and stakes with it. */
  private baker(a: Row, d: Delegation | undefined, meta: boolean, state: ExplorerRow | undefined): ExplorerRow {
    const address = a.address;
    const own = tez(a.staked_balance);
    return {
      // The account row's id: what `cursor` pages the baker lists by.
      row_id: a.row_id,
      address,
      baker_since_time: timeOrZero(a.delegated_since_time ?? a.first_seen_time),
      total_balance: Number(mutezToTez(tez(a.spendable_balance) + own + tez(a.unstaked_balance))),
      spendable_balance: a.spendable_balance,
      delegated_balance: Number(mutezToTez(d?.balance ?? 0n)),
      own_stake: Number(mutezToTez(own)),
      total_stake: Number(mutezToTez(own + tez(a.staker_pool))),
      active_delegations: d?.n ?? 0,
      active_stakers: d?.stakers ?? 0,
      is_active: Boolean(a.is_baker),
      ...Object.fromEntries(UNTRACKED.map((k) => [k, null])),
      ...state,
      ...ownMetadataField(meta, address),
    };
  }
}

interface Delegation {
  n: number;
  balance: bigint;
  stakers: number;
  /** Their tez that are not staked (mutez). */
  held: bigint;
}
