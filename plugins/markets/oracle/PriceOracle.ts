import { Database } from '../../../framework';
import { median } from '../Decimals';
import { MarketStore } from '../store/MarketStore';
import { VenueState } from '../poll/VenueState';

export type FiatCurrency = 'USD' | 'EUR';

export interface OraclePrice {
  /** XTZ price in the currency, an exact decimal string. */
  price: string;
  currency: FiatCurrency;
  /** The time asked for. */
  time: Date;
  /** The closes the median was taken of. */
  sources: Array<{ exchange: string; pair: string; close: string; time: Date }>;
}

/** A close older than this before the time asked for does not count (the venue was down then). */
const STALE_MS = 15 * 60_000;
/** Near the present, venues whose last poll failed are left out even if their last candle is fresh. */
const PRESENT_MS = 10 * 60_000;

/**
 * The XTZ price in USD or EUR at any time, for other plugins (DeFi's `*_usd` fields): the median of
 * the closes of the 1-minute candles at or before that time (at most 15 minutes old) of every venue's
 * XTZ_USD (or XTZ_EUR) market; an even count gives the mean of the two middle closes. Stablecoin
 * markets (USDT, USDC) stand in for USD only when no venue has an XTZ_USD close. Near the present,
 * markets whose last request failed are not counted. Undefined when no venue has a price.
 */
export class PriceOracle {
  constructor(
    private readonly db: Database,
    private readonly store: MarketStore,
    private readonly venues: readonly VenueState[],
  ) {}

  async price(currency: FiatCurrency, at: Date = new Date()): Promise<OraclePrice | undefined> {
    const tiers = currency === 'USD' ? [['XTZ_USD'], ['XTZ_USDT', 'XTZ_USDC']] : [['XTZ_EUR']];
    for (const pairs of tiers) {
      const sources = (await this.closes(pairs, at)).filter((s) => this.healthyAt(s.exchange, s.pair, at));
      const price = median(sources.map((s) => s.close));
      if (price !== undefined) return { price, currency, time: at, sources };
    }
    return undefined;
  }

  /** The latest close at or before `at` of each market of those pairs. */
  private async closes(pairs: readonly string[], at: Date): Promise<OraclePrice['sources']> {
    const t = this.store.candles;
    // A candle covers [time, time + 1m): the one holding `at` is the newest starting at or before it.
    const rows: Array<{ exchange: string; pair: string; close: string; time: Date }> = await this.db.reader
      .withSchema(t.schema)
      .from(t.storage)
      .distinctOn('exchange', 'pair')
      .select('exchange', 'pair', this.db.reader.raw('"close"::text as close'), 'time')
      .whereIn('pair', [...pairs])
      .where('time', '<=', at)
      .where('time', '>', new Date(at.getTime() - STALE_MS))
      .orderBy([{ column: 'exchange' }, { column: 'pair' }, { column: 'time', order: 'desc' }]);
    return rows.map((r) => ({ exchange: r.exchange, pair: r.pair, close: r.close, time: new Date(r.time) }));
  }

  private healthyAt(exchange: string, pair: string, at: Date): boolean {
    if (Math.abs(Date.now() - at.getTime()) > PRESENT_MS) return true;
    const market = this.venues.find((v) => v.adapter.code === exchange)?.market(pair);
    return market === undefined || market.health.state === 'ok' || market.health.state === 'pending';
  }
}
