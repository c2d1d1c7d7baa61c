import { injectable } from 'tsyringe';
import { ApiError, Catalog, CatalogRows, ChainState, Database, explorerObject, parseAddress, parseSequenceId, RouteRegistry, type ExplorerRow } from '../../../framework';
import { BakerOperations } from './BakerOperations';
import { BakerRoutes } from './BakerRoutes';
import { SnapshotRoute } from './SnapshotRoute';

/** A baker's per-cycle rows (income, rights) as explorer objects; 404 when the cycle has none. */
@injectable()
export class BakingExplorer {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly chain: ChainState,
  ) {}

  register(r: RouteRegistry): void {
    new BakerRoutes(this.db, this.catalog).register(r);
    new BakerOperations(this.db, this.catalog, this.chain).register(r);
    new SnapshotRoute(this.db, this.catalog).register(r);
    for (const [path, table, scope] of [
      ['income', 'income', 'GetBakerIncome'],
      ['rights', 'rights', 'GetBakerRights'],
    ] as const) {
      const def = this.catalog.require(table);
      const rows = new CatalogRows(this.db, def, def.columns.filter((c) => c.name !== 'row_key').map((c) => c.name));
      explorerObject(r, `/explorer/bakers/:hash/${path}/:cycle`, scope, async (ctx) => {
        const address = parseAddress(ctx.params.hash);
        const cycle = parseSequenceId(ctx.params.cycle, 'cycle');
        const q = rows.query().where('address', address);
        const row: ExplorerRow | undefined = await rows.first(cycle === 'head' ? q.orderBy('cycle', 'desc') : q.where('cycle', cycle));
        if (!row) throw ApiError.notFound(`no ${path} for baker ${address} in cycle ${cycle}`);
        return { body: row };
      }, { summary: `a baker's ${path} in a cycle (a number or head)`, params: { table, columns: { hash: 'address', cycle: 'cycle' } } });
    }
  }
}
