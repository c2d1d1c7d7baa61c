import { ExchangeAdapter } from '../venues/Adapter';
import { venueSymbol } from '../venues/Symbols';
import { marketId, MarketId } from '../Records';
import { Health, HealthState, pendingHealth } from './VenueHealth';

/** One market the poller follows: its id, the venue's symbol, and its health. */
export interface PolledMarket {
  readonly id: MarketId;
  readonly symbol: string;
  readonly health: Health;
}

/** One venue the instance polls: its adapter, markets and health (what /markets/{exchange} shows). */
export class VenueState {
  readonly markets: readonly PolledMarket[];

  constructor(
    readonly adapter: ExchangeAdapter,
    /** Where its REST API is (the real one, or the offline simulation). */
    public baseUrl: string,
    /** `live` for the real venue, `simulated` for the sandbox's random walk. */
    readonly source: 'live' | 'simulated',
    readonly enabled: boolean,
  ) {
    this.markets = adapter.quotes.map((q) => ({
      id: marketId(adapter.code, q),
      symbol: venueSymbol(adapter.code, q),
      health: pendingHealth(),
    }));
    if (!enabled) for (const m of this.markets) m.health.state = 'disabled';
  }

  /**
   * The venue's state from its markets': `ok` when all answer, `degraded` when some do, otherwise the
   * markets' common state (failing, rate_limited, pending, disabled); the newest failure says why.
   */
  status(): {
    state: HealthState | 'degraded';
    last_error: string | null;
    last_error_time: Date | null;
    last_success: Date | null;
  } {
    const hs = this.markets.map((m) => m.health);
    const ok = hs.filter((h) => h.state === 'ok').length;
    const state =
      ok === hs.length ? 'ok' : ok > 0 ? 'degraded' : hs.some((h) => h.state === 'failing') ? 'failing' : hs[0].state;
    const failed = hs
      .filter((h) => h.last_error_time)
      .sort((a, b) => b.last_error_time!.getTime() - a.last_error_time!.getTime())[0];
    const success = hs.map((h) => h.last_success?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
    const pair = failed ? this.markets[hs.indexOf(failed)].id.pair : '';
    return {
      state,
      last_error: failed ? `${pair}: ${failed.last_error}` : null,
      last_error_time: failed?.last_error_time ?? null,
      last_success: success > 0 ? new Date(success) : null,
    };
  }

  market(pair: string): PolledMarket | undefined {
    return this.markets.find((m) => m.id.pair === pair);
  }
}
