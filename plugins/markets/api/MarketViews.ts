import { ApiError } from '../../../framework';
import { MarketsService } from '../MarketsService';
import { MarketId } from '../Records';
import { VenueState } from '../poll/VenueState';

/** A ticker as TzPro's SDK decodes it (market.Ticker): decimals as JSON numbers, RFC3339 timestamp. */
export type TickerView = Record<string, unknown>;

const TICKER_FIELDS = [
  'pair',
  'base',
  'quote',
  'exchange',
  'open',
  'high',
  'low',
  'last',
  'change',
  'vwap',
  'n_trades',
  'volume_base',
  'volume_quote',
  'timestamp',
];

/**
 * The JSON of the /markets routes, read from the venues' health and the markets tables. TzPro's
 * payloads of /markets, /markets/{exchange} and /markets/{exchange}/{market} are not public; their
 * shape here is ours (docs/markets.md). Unknown exchanges and markets are 404s.
 */
export class MarketViews {
  constructor(private readonly markets: MarketsService) {}

  /** Every exchange, configured or with stored tickers, with its markets. */
  async exchanges(): Promise<unknown[]> {
    const stored = await this.markets.store.storedMarkets();
    const configured = this.markets.venues.map((v) => this.exchangeView(v, stored));
    const others = [...new Set(stored.map((m) => m.exchange))].filter((e) => !this.markets.venue(e));
    return [
      ...configured,
      ...others.map((exchange) => ({
        exchange,
        name: exchange,
        source: null,
        is_active: false,
        status: 'not_polled',
        markets: stored.filter((m) => m.exchange === exchange).map(pairView),
      })),
    ];
  }

  async exchange(code: string): Promise<unknown> {
    const stored = await this.markets.store.storedMarkets();
    const venue = this.markets.venue(code);
    if (venue) return this.exchangeView(venue, stored);
    const markets = stored.filter((m) => m.exchange === code);
    if (markets.length === 0) throw ApiError.notFound(`no such exchange '${code}'`);
    return {
      exchange: code,
      name: code,
      source: null,
      is_active: false,
      status: 'not_polled',
      markets: markets.map(pairView),
    };
  }

  async market(exchange: string, pair: string): Promise<unknown> {
    const id = await this.resolve(exchange, pair);
    const polled = this.markets.venue(exchange)?.market(pair);
    const [span, ticker] = await Promise.all([this.markets.store.candleSpan(id), this.ticker(exchange, pair, false)]);
    return {
      ...pairView(id),
      exchange,
      symbol: polled?.symbol ?? null,
      is_active: polled?.health.state === 'ok',
      status: polled?.health.state ?? 'not_polled',
      last_error: polled?.health.last_error ?? null,
      last_error_time: polled?.health.last_error_time ?? null,
      last_update: polled?.health.last_success ?? null,
      first_time: span?.first ?? null,
      last_time: span?.last ?? null,
      last_price: ticker?.last ?? null,
    };
  }

  async tickers(): Promise<TickerView[]> {
    const rows = this.markets.store.tickerRows();
    const all = await rows.read(rows.query().orderBy([{ column: 'pair' }, { column: 'exchange' }]));
    return all.map(tickerView);
  }

  async ticker(exchange: string, pair: string, required = true): Promise<TickerView | undefined> {
    if (required) await this.resolve(exchange, pair);
    const rows = this.markets.store.tickerRows();
    const row = await rows.first(rows.query().where({ exchange, pair }));
    if (!row && required) throw ApiError.notFound(`no ticker for ${exchange}/${pair} yet`);
    return row ? tickerView(row) : undefined;
  }

  /** The market of a configured venue, or one with a stored ticker; 404 otherwise. */
  async resolve(exchange: string, pair: string): Promise<MarketId> {
    const polled = this.markets.venue(exchange)?.market(pair);
    if (polled) return polled.id;
    const stored = (await this.markets.store.storedMarkets()).find((m) => m.exchange === exchange && m.pair === pair);
    if (stored) return stored;
    if (
      !this.markets.venue(exchange) &&
      !(await this.markets.store.storedMarkets()).some((m) => m.exchange === exchange)
    ) {
      throw ApiError.notFound(`no such exchange '${exchange}'`);
    }
    throw ApiError.notFound(`no such market '${pair}' on exchange '${exchange}'`);
  }

  private exchangeView(v: VenueState, stored: readonly MarketId[]): unknown {
    const status = v.status();
    const extra = stored.filter((m) => m.exchange === v.adapter.code && !v.market(m.pair));
    return {
      exchange: v.adapter.code,
      name: v.adapter.name,
      source: v.source,
      is_active: status.state === 'ok' || status.state === 'degraded',
      status: status.state,
      last_error: status.last_error,
      last_error_time: status.last_error_time,
      last_update: status.last_success,
      n_markets: v.markets.length,
      markets: [
        ...v.markets.map((m) => ({
          ...pairView(m.id),
          symbol: m.symbol,
          status: m.health.state,
          last_error: m.health.last_error,
        })),
        ...extra.map((m) => ({ ...pairView(m), symbol: null, status: 'not_polled', last_error: null })),
      ],
    };
  }
}

function pairView(m: MarketId): { pair: string; base: string; quote: string } {
  return { pair: m.pair, base: m.base, quote: m.quote };
}

function tickerView(row: Record<string, unknown>): TickerView {
  return Object.fromEntries(TICKER_FIELDS.map((f) => [f, row[f] ?? null]));
}
