import { Database, PluginContext, PluginManifest, RouteRegistry, TzidxPlugin } from '../../framework';
import { MarketViews } from './api/MarketViews';
import { registerMarketRoutes } from './api/MarketRoutes';
import { marketsSettings } from './MarketsSettings';
import { MarketsService } from './MarketsService';
import { PriceOracle } from './oracle/PriceOracle';

/**
 * XTZ tickers and OHLCV candles from centralized exchanges. Its tables are declared in tables.yaml
 * under `markets`; the data is polled, not indexed from blocks, so chain reorgs never touch it.
 * Other plugins resolve `PriceOracle` from the container (see index.ts).
 */
export class MarketsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'markets',
    description: 'XTZ tickers and OHLCV candles from centralized exchanges',
  };

  private service?: MarketsService;

  register(ctx: PluginContext): void {
    const service = new MarketsService(ctx.container.resolve(Database), ctx.catalog, marketsSettings(ctx.config), ctx.log);
    this.service = service;
    ctx.container.registerInstance(MarketsService, service);
    ctx.container.registerInstance(PriceOracle, service.oracle);
  }

  routes(r: RouteRegistry): void {
    registerMarketRoutes(r, new MarketViews(this.required()));
  }

  async start(): Promise<void> {
    await this.required().start();
  }

  async stop(): Promise<void> {
    await this.service?.stop();
  }

  private required(): MarketsService {
    if (!this.service) throw new Error('markets: used before register()');
    return this.service;
  }
}
