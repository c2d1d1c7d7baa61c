import {
  ApiError,
  Catalog,
  CatalogRows,
  ChainState,
  Database,
  explorerObject,
  parseAddress,
  RouteRegistry,
  whereIndexedEquality,
} from '../../../framework';
import { BlockLookup, ChainTables, coreChainTables, OperationLoader, OperationPages } from '../../core-chain';

/** A baker's attestations and the delegations to it, as core-chain's operation lists (20/500, cursor/offset/order). */
export class BakerOperations {
  private readonly accounts;
  private readonly pages: OperationPages;

  constructor(
    db: Database,
    private readonly catalog: Catalog,
    chain: ChainState,
  ) {
    const tables = new ChainTables(db, catalog);
    const blocks = new BlockLookup(tables, chain);
    this.pages = new OperationPages(new OperationLoader(tables, blocks), blocks, db);
    this.accounts = CatalogRows.of(db, catalog.require('account'), coreChainTables.account, ['row_id']);
  }

  register(r: RouteRegistry): void {
    const opType = this.catalog.require('op').column('type')!.type;
    for (const [path, scope, type, role, summary] of [
      ['endorsements', 'ListBakerEndorsements', 'endorsement', 'sender', "a baker's attestations (endorsements)"],
      ['delegations', 'ListBakerDelegations', 'delegation', 'baker', 'delegations to a baker'],
    ] as const) {
      explorerObject(
        r,
        `/explorer/bakers/:hash/${path}`,
        scope,
        async (ctx) => {
          // By account id: the op table indexes its senders and bakers by id (sender_id, baker_id).
          const id = await this.baker(ctx.params.hash);
          return {
            body: await this.pages.list(ctx.query, {
              scopes: [
                (q, order) => whereIndexedEquality(q.where({ type: opType.parse(type) }), `${role}_id`, id, order),
              ],
              defaultOrder: 'desc',
            }),
          };
        },
        { summary, params: { table: 'rights', columns: { hash: 'address' } } },
      );
    }
  }

  /** A registered baker's account id (400 malformed, 404 no baker). */
  private async baker(raw: string): Promise<number> {
    const address = parseAddress(raw);
    const account = await this.accounts.first(this.accounts.query().where({ address, is_baker: true }));
    if (!account) throw ApiError.notFound(`no baker ${address}`);
    return Number(account.row_id);
  }
}
