import { injectable } from 'tsyringe';
import { Database, PluginContext, PluginContribution, PluginManifest, TzidxPlugin } from '../../framework';
import { MarketViews } from './api/MarketViews';
import { registerMarketRoutes } from './api/MarketRoutes';
import { marketsSettings } from './MarketsSettings';
import { MarketsService } from './MarketsService';
import { PriceOracle } from './oracle/PriceOracle';

/**
 * XTZ tickers and OHLCV candles from centralized exchanges. Its tables are declared in tables.yaml
 * under `markets`; the data is polled, not indexed from blocks, so chain reorgs never touch it.
 * Other plugins name `PriceOracle` in their constructor (see index.ts).
 */
@injectable()
export class MarketsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'markets',
    description: 'XTZ tickers and OHLCV candles from centralized exchanges',
    contributes: ['routes', 'start'],
  };

  constructor(private readonly db: Database) {}

  setup(ctx: PluginContext): PluginContribution {
    const service = new MarketsService(this.db, ctx.catalog, marketsSettings(ctx.config), ctx.log);
    ctx.container.registerInstance(MarketsService, service);
    ctx.container.registerInstance(PriceOracle, service.oracle);
    return {
      routes: (r) => registerMarketRoutes(r, new MarketViews(service)),
      start: () => service.start(),
      stop: () => service.stop(),
    };
  }
}
