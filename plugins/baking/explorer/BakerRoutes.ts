import { ApiError, applyListRequest, Catalog, CatalogRows, Database, EXPLORER_LIST_PROFILE, ExplorerArgs, explorerObject, ExplorerRow, metadataField, mutezToTez, parseAddress, parseTableRequest, RouteRegistry, timeOrZero } from '../../../framework';

const FIELDS = ['row_id', 'address', 'spendable_balance', 'is_baker', 'delegated_since_time', 'first_seen_time'];

/**
 * `/explorer/bakers` and `/explorer/bakers/{hash}` as the SDK's index.Baker, from core-chain's account
 * table only: fields that need stake, grace period or version tracking are omitted, never invented.
 */
export class BakerRoutes {
  private readonly accounts: CatalogRows;

  constructor(private readonly db: Database, catalog: Catalog) {
    this.accounts = new CatalogRows(db, catalog.require('account'), FIELDS);
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
      const delegations = await this.delegations(rows.map((b) => b.address as string));
      return { body: rows.map((b) => this.baker(b, delegations.get(b.address as string), args.flag('meta'))) };
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
      return { body: this.baker(row, (await this.delegations([address])).get(address), new ExplorerArgs(ctx.query, ['meta']).flag('meta')) };
    }, { summary: 'a baker', params: { table: 'rights', columns: { hash: 'address' } } });
  }

  /** Funded accounts delegating to each baker (itself excluded): count and balance, one query for a page. */
  private async delegations(bakers: readonly string[]): Promise<Map<string, { n: number; balance: bigint }>> {
    const out = new Map<string, { n: number; balance: bigint }>();
    if (bakers.length === 0) return out;
    const t = this.accounts.table;
    const rows = (await this.db.reader.withSchema(t.schema).from(t.storage).whereIn('baker', bakers).whereRaw('address <> baker').where('spendable_balance', '>', 0)
      .groupBy('baker').select('baker').count({ n: '*' }).sum({ balance: 'spendable_balance' })) as Array<{ baker: string; n: string | number; balance: string | number | null }>;
    for (const r of rows) out.set(r.baker, { n: Number(r.n), balance: BigInt(r.balance ?? 0) });
    return out;
  }

  /** One baker: its balance and what delegates to it. */
  private baker(a: ExplorerRow, d: { n: number; balance: bigint } | undefined, meta: boolean): ExplorerRow {
    const address = a.address as string;
    return {
      address,
      baker_since_time: timeOrZero(a.delegated_since_time ?? a.first_seen_time),
      spendable_balance: a.spendable_balance,
      delegated_balance: Number(mutezToTez(d?.balance ?? 0n)),
      active_delegations: d?.n ?? 0,
      is_active: Boolean(a.is_baker),
      ...metadataField(meta, address),
    };
  }
}
