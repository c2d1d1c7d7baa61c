import { injectable } from 'tsyringe';
import { Catalog, Database, PluginContribution, PluginManifest, TzidxPlugin } from '../../framework';
import { MarketUsdQuotes } from '../defi-dex/core/MarketUsdQuotes';
import { LENDING_ADAPTERS } from './adapters';
import { LendRoutes } from './api/LendRoutes';
import { LendingRecorder } from './core/LendingRecorder';
import { readAheadPositions } from '../defi-dex/core/PositionReadAhead';
import { tables } from './tables.generated';

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
  setup(): PluginContribution {
    return {
      handlers: (registry) => {
        const recorder = new LendingRecorder();
        for (const adapter of LENDING_ADAPTERS) adapter.register(registry, recorder);
        registry.blocksStart((blocks, ctx) => readAheadPositions(blocks, ctx, { pools: tables.lend_pool, positions: tables.lend_position }));
      },
      // USD values as the DEX's: tez from the markets plugin, tokens through defi-dex's tez pools (null when either is off).
      routes: (r) => new LendRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r),
    };
  }
}
