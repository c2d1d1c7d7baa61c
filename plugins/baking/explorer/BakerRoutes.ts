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
      const { suggest, active, status, ...query } = ctx.query as Record<string, string | string[] | undefined>;
      const args = new ExplorerArgs(query, ['meta']);
      const request = parseTableRequest(this.accounts.table, args.rest, EXPLORER_LIST_PROFILE);
      const q = this.accounts.query().where('is_baker', true);
      if (typeof suggest === 'string' && suggest) q.where('address', 'like', `${suggest.replace(/[%_\\]/g, '')}%`);
      if (active === 'true' || status === 'active') q.where('spendable_balance', '>', 0);
      const rows = await this.accounts.read(applyListRequest(q, request));
      return { body: await Promise.all(rows.map((b) => this.baker(b, args.flag('meta')))) };
    }, {
      summary: 'registered bakers, 20 a page (up to 500)',
      query: [
        { name: 'suggest', description: 'address prefix', schema: { type: 'string' } },
        { name: 'active', description: 'only bakers with a balance', schema: { type: 'boolean' } },
        { name: 'status', description: '`active`: as active=true', schema: { type: 'string', enum: ['active'] } },
      ],
    });

    explorerObject(r, '/explorer/bakers/:hash', 'GetBaker', async (ctx) => {
      const address = parseAddress(ctx.params.hash);
      const row = await this.accounts.first(this.accounts.query().where({ address, is_baker: true }));
      if (!row) throw ApiError.notFound(`no baker ${address}`);
      return { body: await this.baker(row, new ExplorerArgs(ctx.query, ['meta']).flag('meta')) };
    }, { summary: 'a baker', params: { table: 'rights', columns: { hash: 'address' } } });
  }

  /** One baker: its balance and the funded accounts delegating to it (itself excluded). */
  private async baker(a: ExplorerRow, meta: boolean): Promise<ExplorerRow> {
    const address = a.address as string;
    const t = this.accounts.table;
    const d = (await this.db.reader.withSchema(t.schema).from(t.storage).where('baker', address).whereNot('address', address).where('spendable_balance', '>', 0)
      .count({ n: '*' }).sum({ balance: 'spendable_balance' }).first()) as { n: string | number; balance: string | number | null } | undefined;
    return {
      address,
      baker_since_time: timeOrZero(a.delegated_since_time ?? a.first_seen_time),
      spendable_balance: a.spendable_balance,
      delegated_balance: Number(mutezToTez(BigInt(d?.balance ?? 0))),
      active_delegations: Number(d?.n ?? 0),
      is_active: Boolean(a.is_baker),
      ...metadataField(meta, address),
    };
  }
}
