import { injectable } from 'tsyringe';
import { Catalog, Database, PluginContribution, PluginManifest, TzidxPlugin } from '../../framework';
import { DEX_ADAPTERS } from './adapters';
import { DexRoutes } from './api/DexRoutes';
import { DexRecorder } from './core/DexRecorder';
import { MarketUsdQuotes } from './core/MarketUsdQuotes';
import { readAheadPositions } from './core/PositionReadAhead';
import { tables } from './tables.generated';

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

  /** Every adapter decodes its protocol's operations and reports them to one recorder. */
  setup(): PluginContribution {
    return {
      handlers: (registry) => {
        const recorder = new DexRecorder((code) => this.catalog.table(code) !== undefined);
        for (const adapter of DEX_ADAPTERS) adapter.register(registry, recorder);
        registry.blocksStart((blocks, ctx) => readAheadPositions(blocks, ctx, { pools: tables.dex_pool, positions: tables.dex_position }));
      },
      routes: (r) => new DexRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r),
    };
  }
}
