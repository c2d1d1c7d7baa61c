import { ApiError, applyListRequest, Catalog, CatalogRows, Database, EXPLORER_LIST_PROFILE, ExplorerArgs, explorerObject, ExplorerRow, metadataField, mutezToTez, parseAddress, tezToMutez, parseTableRequest, RouteRegistry, timeOrZero } from '../../../framework';

import { BakerActivity } from './BakerActivity';
import { BakerState } from './BakerState';

const FIELDS = ['row_id', 'address', 'spendable_balance', 'staked_balance', 'unstaked_balance', 'staker_pool', 'is_baker', 'delegated_since_time', 'first_seen_time'];

/**
 * index.Baker keys null unless the newest stake snapshot tells them (BakerState: grace period,
 * consensus key, staking parameters, baking power and network share), or not tracked at all
 * (version, capacities, over-delegation): null, never invented.
 */
const UNTRACKED = ['consensus_key', 'consensus_address', 'grace_period', 'baker_version', 'delegation_capacity', 'staking_capacity', 'staking_edge', 'staking_limit', 'baking_power', 'network_share', 'is_over_delegated', 'is_over_staked'];

/**
 * `/explorer/bakers` and `/explorer/bakers/{hash}` as the SDK's index.Baker, from core-chain's account
 * table (balances, own stake and the external stakers' pool from the receipts), the newest stake
 * snapshot (what the node told of the baker then) and the income rows (stats, events).
 */
export class BakerRoutes {
  private readonly accounts: CatalogRows;
  private readonly activity: BakerActivity;
  private readonly state: BakerState;

  constructor(private readonly db: Database, catalog: Catalog) {
    this.accounts = new CatalogRows(db, catalog.require('account'), FIELDS);
    this.activity = new BakerActivity(db, catalog);
    this.state = new BakerState(db, catalog);
  }

  register(r: RouteRegistry): void {
    explorerObject(r, '/explorer/bakers', 'ListBakers', async (ctx) => {
      const args = new ExplorerArgs(ctx.query, ['meta', 'suggest', 'active', 'status']);
      const status = args.get('status');
      if (status !== undefined && status !== 'active' && status !== 'inactive') throw ApiError.badQuery(`invalid status '${status}': expected active or inactive`);
      const request = parseTableRequest(this.accounts.table, args.rest, EXPLORER_LIST_PROFILE);
      const q = this.accounts.query().where('is_baker', true);
      const suggest = args.get('suggest');
      if (suggest) q.where('address', 'like', `${suggest.replace(/[%_\\]/g, '')}%`);
      // Without grace-period tracking, "active" means a registered baker that still holds tez.
      if (args.flag('active') || status === 'active') q.where('spendable_balance', '>', 0);
      if (status === 'inactive') q.where('spendable_balance', '=', 0);
      const rows = await this.accounts.read(applyListRequest(q, request));
      const addresses = rows.map((b) => b.address as string);
      const [delegations, stats, states] = await Promise.all([this.delegations(addresses), this.activity.stats(addresses), this.state.of(addresses)]);
      // List items always carry their statistics, as the original's.
      return { body: rows.map((b) => ({ ...this.baker(b, delegations.get(b.address as string), args.flag('meta'), states.get(b.address as string)), stats: stats.get(b.address as string) ?? null })) };
    }, {
      summary: 'registered bakers, 20 a page (up to 500)',
      query: [
        { name: 'suggest', description: 'address prefix', schema: { type: 'string' } },
        { name: 'active', description: 'only bakers with a balance (1/true)', schema: { type: 'boolean' } },
        { name: 'status', description: '`active` (as active=1) or `inactive` (no balance left)', schema: { type: 'string', enum: ['active', 'inactive'] } },
      ],
    });

    explorerObject(r, '/explorer/bakers/:hash', 'GetBaker', async (ctx) => {
      const address = parseAddress(ctx.params.hash);
      const row = await this.accounts.first(this.accounts.query().where({ address, is_baker: true }));
      if (!row) throw ApiError.notFound(`no baker ${address}`);
      const meta = new ExplorerArgs(ctx.query, ['meta']).flag('meta');
      const body = this.baker(row, (await this.delegations([address])).get(address), meta, (await this.state.of([address])).get(address));
      // meta=1 adds its events and statistics (the original's full mode).
      if (meta) Object.assign(body, { events: await this.activity.events(address), stats: (await this.activity.stats([address])).get(address) ?? null });
      return { body };
    }, { summary: 'a baker', params: { table: 'rights', columns: { hash: 'address' } } });
  }

  /**
   * Accounts delegating to each baker (itself excluded): funded ones with their balance, and those
   * holding its staking pseudotokens; one query for a page.
   */
  private async delegations(bakers: readonly string[]): Promise<Map<string, Delegation>> {
    const out = new Map<string, Delegation>();
    if (bakers.length === 0) return out;
    const t = this.accounts.table;
    const knex = this.db.reader;
    const rows = (await knex.withSchema(t.schema).from(t.storage).whereIn('baker', bakers).whereRaw('address <> baker')
      .where((w) => w.where('spendable_balance', '>', 0).orWhere('stake_shares', '>', 0))
      .groupBy('baker')
      .select('baker', knex.raw('sum(case when spendable_balance > 0 then 1 else 0 end) as n'), knex.raw('sum(spendable_balance) as balance'), knex.raw('sum(case when stake_shares > 0 then 1 else 0 end) as stakers'))) as Array<{ baker: string; n: string | number; balance: string | number | null; stakers: string | number }>;
    for (const r of rows) out.set(r.baker, { n: Number(r.n), balance: BigInt(r.balance ?? 0), stakers: Number(r.stakers) });
    return out;
  }

  /** One baker: its balances, its stake and what delegates and stakes with it. */
  private baker(a: ExplorerRow, d: Delegation | undefined, meta: boolean, state: ExplorerRow | undefined): ExplorerRow {
    const address = a.address as string;
    const tez = (v: unknown): bigint => tezToMutez(String(v ?? 0));
    const own = tez(a.staked_balance);
    return {
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
      ...metadataField(meta, address),
    };
  }
}

interface Delegation {
  n: number;
  balance: bigint;
  stakers: number;
}
