import { injectable } from 'tsyringe';
import { Catalog, Database, HandlerRegistry, PluginManifest, RouteRegistry, TzidxPlugin } from '../../framework';
import { MarketUsdQuotes } from '../defi-dex/core/MarketUsdQuotes';
import { LENDING_ADAPTERS } from './adapters';
import { LendRoutes } from './api/LendRoutes';
import { LendingRecorder } from './core/LendingRecorder';

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
@injectable()
export class DefiLendingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-lending',
    description: 'Lending pools, their events and positions',
    dependsOn: ['core-chain'],
  };

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  /** Every adapter decodes its protocol's calls and reports them to one recorder. */
  handlers(r: HandlerRegistry): void {
    const recorder = new LendingRecorder();
    for (const adapter of LENDING_ADAPTERS) adapter.register(r, recorder);
  }

  routes(r: RouteRegistry): void {
    // USD values as the DEX's: tez from the markets plugin, tokens through defi-dex's tez pools (null when either is off).
    new LendRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r);
  }
}
