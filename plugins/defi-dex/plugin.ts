import { injectable } from 'tsyringe';
import { Catalog, Database, PluginManifest, RouteRegistry, TzidxPlugin } from '../../framework';
import { DexRoutes } from './api/DexRoutes';

/** DEX pools, trades, positions, prices and candles. Its tables are declared in tables.yaml under `defi-dex`. */
@injectable()
export class DefiDexPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-dex',
    description: 'DEX pools, trades, positions, prices and candles',
    dependsOn: ['core-chain'],
  };

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  routes(r: RouteRegistry): void {
    new DexRoutes(this.db, this.catalog).register(r);
  }
}
