import { ApiError, Catalog, CatalogRows, ChainState, Database, explorerObject, parseAddress, RouteRegistry } from '../../../framework';
import { BlockLookup, ChainTables, OperationLoader, OperationPages } from '../../core-chain';

/** A baker's attestations and the delegations to it, as core-chain's operation lists (20/500, cursor/offset/order). */
export class BakerOperations {
  private readonly accounts: CatalogRows;
  private readonly pages: OperationPages;

  constructor(db: Database, catalog: Catalog, chain: ChainState) {
    const tables = new ChainTables(db, catalog);
    const blocks = new BlockLookup(tables, chain);
    this.pages = new OperationPages(new OperationLoader(tables, blocks), blocks, db);
    this.accounts = tables.rows('account', ['address']);
  }

  register(r: RouteRegistry): void {
    for (const [path, scope, type, role, summary] of [
      ['endorsements', 'ListBakerEndorsements', 'endorsement', 'sender', "a baker's attestations (endorsements)"],
      ['delegations', 'ListBakerDelegations', 'delegation', 'baker', 'delegations to a baker'],
    ] as const) {
      explorerObject(r, `/explorer/bakers/:hash/${path}`, scope, async (ctx) => {
        const address = await this.baker(ctx.params.hash);
        return { body: await this.pages.list(ctx.query, { scopes: [(q) => q.where({ [role]: address, type })], defaultOrder: 'desc' }) };
      }, { summary, params: { table: 'rights', columns: { hash: 'address' } } });
    }
  }

  /** A registered baker's address (400 malformed, 404 no baker). */
  private async baker(raw: string): Promise<string> {
    const address = parseAddress(raw);
    if (!(await this.accounts.first(this.accounts.query().where({ address, is_baker: true })))) throw ApiError.notFound(`no baker ${address}`);
    return address;
  }
}
