import { injectable } from 'tsyringe';
import {
  ApiError,
  Catalog,
  CatalogRows,
  ChainState,
  Database,
  explorerObject,
  parseAddress,
  parseSequenceId,
  RouteRegistry,
  timeOrZero,
  type ExplorerRow,
} from '../../../framework';
import { BAKER_OP_COLUMNS } from '../BakerOpCounts';
import { BakerOperations } from './BakerOperations';
import { BakerRoutes } from './BakerRoutes';
import { SnapshotRoute } from './SnapshotRoute';

/**
 * The SDK's index.Income names two snapshot columns differently from the table (`balance`, `delegated`)
 * and has non-pointer times; the operation counters are the baker's `stats`, not income fields.
 */
function sdkIncome(row: ExplorerRow): ExplorerRow {
  const { balance, delegated, ...rest } = row;
  for (const c of BAKER_OP_COLUMNS) delete rest[c];
  // An open cycle has no end yet: Go's zero time, as the original sends (the SDK's time.Time is not a pointer).
  return {
    ...rest,
    own_balance: balance,
    delegated_balance: delegated,
    start_time: timeOrZero(row.start_time),
    end_time: timeOrZero(row.end_time),
  };
}

/**
 * A baker's per-cycle rows (income as the SDK's index.Income, rights) as explorer objects; 404 when the cycle has none.
 */
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
      const rows = new CatalogRows(
        this.db,
        def,
        def.columns.filter((c) => c.name !== 'row_key').map((c) => c.name),
      );
      explorerObject(
        r,
        `/explorer/bakers/:hash/${path}/:cycle`,
        scope,
        async (ctx) => {
          const address = parseAddress(ctx.params.hash);
          const cycle = parseSequenceId(ctx.params.cycle, 'cycle');
          const q = rows.query().where('address', address);
          const row: ExplorerRow | undefined = await rows.first(
            cycle === 'head' ? q.orderBy('cycle', 'desc') : q.where('cycle', cycle),
          );
          if (!row) throw ApiError.notFound(`no ${path} for baker ${address} in cycle ${cycle}`);
          return { body: path === 'income' ? sdkIncome(row) : row };
        },
        {
          summary: `a baker's ${path} in a cycle (a number or head)`,
          params: { table, columns: { hash: 'address', cycle: 'cycle' } },
        },
      );
    }
  }
}
