import { Catalog, Database, Logger } from '../../framework';
import { MarketsSettings } from './MarketsSettings';
import { PriceOracle } from './oracle/PriceOracle';
import { MarketPoller } from './poll/MarketPoller';
import { VenueState } from './poll/VenueState';
import { SimulatedExchange } from './sandbox/SimulatedExchange';
import { MarketStore } from './store/MarketStore';

/**
 * The plugin's running parts: the venues with their health, the store, the poller (started on the
 * writing instance only) and the price oracle. Offline, the simulated exchange is started first and
 * the Kraken adapter pointed at it.
 */
export class MarketsService {
  readonly store: MarketStore;
  readonly venues: readonly VenueState[];
  readonly oracle: PriceOracle;
  private poller?: MarketPoller;
  private simulation?: SimulatedExchange;

  constructor(
    db: Database,
    catalog: Catalog,
    private readonly settings: MarketsSettings,
    private readonly log: Logger,
  ) {
    this.store = new MarketStore(db, catalog, log);
    this.venues = settings.venues.map(
      (a) => new VenueState(a, a.baseUrl, settings.simulated ? 'simulated' : 'live', settings.enabled),
    );
    this.oracle = new PriceOracle(db, this.store, this.venues);
  }

  venue(exchange: string): VenueState | undefined {
    return this.venues.find((v) => v.adapter.code === exchange);
  }

  async start(): Promise<void> {
    if (!this.settings.enabled || this.poller) return;
    if (this.settings.simulated) {
      this.simulation = new SimulatedExchange(1);
      const url = await this.simulation.listen();
      for (const v of this.venues) v.baseUrl = url;
      this.log.info({ url }, "markets: offline, polling a simulated exchange in Kraken's shape");
    }
    this.poller = new MarketPoller(this.venues, this.store, this.settings.schedule, this.log);
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller?.stop();
    this.poller = undefined;
    await this.simulation?.close();
    this.simulation = undefined;
  }
}
