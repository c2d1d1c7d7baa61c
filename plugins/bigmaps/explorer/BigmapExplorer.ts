import { injectable } from 'tsyringe';
import { Catalog, ChainState, Database, RouteRegistry } from '../../../framework';
import { BlockLookup, ChainTables } from '../../core-chain';
import { BigmapReader } from './BigmapReader';
import { BigmapRoutes } from './BigmapRoutes';

/** The bigmaps plugin's explorer API. */
@injectable()
export class BigmapExplorer {
  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly chain: ChainState,
  ) {}

  register(r: RouteRegistry): void {
    const blocks = new BlockLookup(new ChainTables(this.db, this.catalog), this.chain);
    new BigmapRoutes(new BigmapReader(this.db, this.catalog), blocks).register(r);
  }
}
