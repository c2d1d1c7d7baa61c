import { injectable } from 'tsyringe';
import { Catalog, ChainState, CycleFigures, Database, IndexerStatus, RouteRegistry } from '../../../framework';
import { AccountRoutes } from './AccountRoutes';
import { BlockLookup } from './BlockLookup';
import { BlockRoutes } from './BlockRoutes';
import { ChainRoutes } from './ChainRoutes';
import { ChainTables } from './ChainTables';
import { ContractObjects } from './ContractObjects';
import { ContractRoutes } from './ContractRoutes';
import { CycleRoutes } from './CycleRoutes';
import { OperationLoader } from './OperationLoader';
import { OperationPages } from './OperationPages';
import { OperationRoutes } from './OperationRoutes';
import { ProtocolHistory } from './ProtocolHistory';

/**
 * core-chain's hand-written explorer routes (composite objects), sharing one set of lookups; its
 * routes over one table are declared in tables.yaml.
 */
@injectable()
export class ChainExplorer {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly chain: ChainState,
    private readonly status: IndexerStatus,
    private readonly cycleFigures: CycleFigures,
  ) {}

  register(r: RouteRegistry): void {
    const tables = new ChainTables(this.db, this.catalog);
    const blocks = new BlockLookup(tables, this.chain);
    const loader = new OperationLoader(tables, blocks);
    const pages = new OperationPages(loader, blocks, this.db);
    const contracts = new ContractObjects(tables);
    new BlockRoutes(tables, blocks, pages).register(r);
    new OperationRoutes(loader).register(r);
    new AccountRoutes(tables, contracts, pages).register(r);
    new ContractRoutes(tables, contracts, pages, blocks).register(r);
    new CycleRoutes(tables, blocks, this.cycleFigures).register(r);
    new ChainRoutes(tables, blocks, new ProtocolHistory(tables), this.chain, this.status).register(r);
  }
}
