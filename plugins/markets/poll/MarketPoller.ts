import { setMaxListeners } from 'node:events';
import { Logger, errorMessage } from '../../../framework';
import { CandleRecord, TradeRecord } from '../Records';
import { withTradeSplits } from '../TradeSplits';
import { MarketStore } from '../store/MarketStore';
import { recordFailure, recordSuccess } from './VenueHealth';
import { DEFAULT_CLIENT_OPTIONS, sleep, VenueClient, VenueClientOptions, VenueRequestError } from './VenueClient';
import { PolledMarket, VenueState } from './VenueState';

export interface PollSchedule {
  tickerIntervalMs: number;
  candleIntervalMs: number;
  /** How far back candles are fetched for a market without any. */
  backfillMs: number;
  /** Candle pages fetched per market and round while catching up. */
  maxPagesPerRound: number;
  client: VenueClientOptions;
}

export const DEFAULT_SCHEDULE: PollSchedule = {
  tickerIntervalMs: 10_000,
  candleIntervalMs: 60_000,
  backfillMs: 12 * 3_600_000,
  maxPagesPerRound: 20,
  client: DEFAULT_CLIENT_OPTIONS,
};

const MINUTE = 60_000;

/**
 * Polls every venue on its own: a ticker loop and a candle loop per venue, each going through the
 * venue's markets. Every failure (network, timeout, HTTP status, rate limit, bad JSON, wrong schema,
 * database) is caught where it happens and written into the market's and venue's health, so one bad
 * venue never stops the others and no promise is left to reject unhandled.
 */
export class MarketPoller {
  private readonly controller = new AbortController();
  private loops: Promise<void>[] = [];
  private readonly clients: VenueClient[] = [];

  constructor(
    private readonly venues: readonly VenueState[],
    private readonly store: MarketStore,
    private readonly schedule: PollSchedule,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    // Every venue's two loops and their requests wait on this one signal at once: not a leak.
    setMaxListeners(0, this.controller.signal);
  }

  start(): void {
    const signal = this.controller.signal;
    for (const venue of this.venues) {
      if (!venue.enabled) continue;
      const client = new VenueClient(venue.baseUrl, venue.adapter.minIntervalMs, this.schedule.client, signal);
      this.clients.push(client);
      this.loops.push(this.loop(() => this.pollCandles(venue, client), this.schedule.candleIntervalMs));
      this.loops.push(this.loop(() => this.pollTickers(venue, client), this.schedule.tickerIntervalMs));
    }
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.loops);
    await Promise.all(this.clients.map((c) => c.stop()));
    await this.store.drain();
    this.loops = [];
  }

  /** One round over every market of every venue, concurrently per venue (tests and the first round). */
  async pollOnce(): Promise<void> {
    const signal = this.controller.signal;
    await Promise.all(
      this.venues
        .filter((v) => v.enabled)
        .map(async (venue) => {
          const client = new VenueClient(venue.baseUrl, venue.adapter.minIntervalMs, this.schedule.client, signal);
          try {
            await this.pollTickers(venue, client);
            await this.pollCandles(venue, client);
          } finally {
            await client.stop();
          }
        }),
    );
  }

  private async loop(round: () => Promise<void>, intervalMs: number): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      const started = this.now();
      await round();
      await sleep(Math.max(0, intervalMs - (this.now() - started)), signal);
    }
  }

  private async pollTickers(venue: VenueState, client: VenueClient): Promise<void> {
    for (const market of venue.markets) {
      await this.attempt(venue, market, async () => {
        const ticker = await client.get(venue.adapter.tickerPath(market.symbol), (body) =>
          venue.adapter.parseTicker(body, new Date(this.now())),
        );
        await this.store.saveTicker(market.id, ticker);
      });
    }
  }

  private async pollCandles(venue: VenueState, client: VenueClient): Promise<void> {
    for (const market of venue.markets) {
      await this.attempt(venue, market, async () => {
        for (let page = 0; page < this.schedule.maxPagesPerRound; page++) {
          const now = this.now();
          const newest = await this.store.newestCandle(market.id);
          const since =
            newest !== undefined
              ? Math.max(newest + MINUTE, now - this.schedule.backfillMs)
              : now - this.schedule.backfillMs;
          const path = venue.adapter.candlesPath(market.symbol, since, now);
          const candles = await client.get(path, (body) => venue.adapter.parseCandles(body));
          const closed = candles.filter((c: CandleRecord) => c.time >= since && c.time + MINUTE <= now);
          const split = await this.withSplits(venue, client, market, closed, now);
          const added = await this.store.saveCandles(market.id, split);
          // A full page that did not reach the present: there is more to catch up with.
          const last = closed[closed.length - 1]?.time ?? 0;
          if (added === 0 || candles.length < venue.adapter.maxCandles || last >= now - 2 * MINUTE) break;
        }
      });
    }
  }

  /**
   * Closed candles with their buy/sell splits, from the venue's trades where it lists them (pages
   * until the last candle's minute is covered). Candles are appended once: a trade list that fails is
   * logged and the candles are saved without splits rather than held back.
   */
  private async withSplits(
    venue: VenueState,
    client: VenueClient,
    market: PolledMarket,
    closed: CandleRecord[],
    now: number,
  ): Promise<CandleRecord[]> {
    const feed = venue.adapter.trades;
    if (!feed || closed.length === 0) return closed;
    const end = closed[closed.length - 1].time + MINUTE;
    const trades: TradeRecord[] = [];
    let after = closed[0].time - 1;
    let complete = after;
    try {
      for (let page = 0; page < this.schedule.maxPagesPerRound && complete < end; page++) {
        const answer = await client.get(feed.path(market.symbol, after), (body) => feed.parse(body));
        const last = answer[answer.length - 1]?.time;
        if (answer.length < feed.pageSize || last === undefined) {
          // Not cut: the venue had nothing more up to now.
          trades.push(...answer.filter((t) => t.time > after));
          complete = now;
          break;
        }
        // Cut at the page size, maybe inside its last millisecond: that one is asked for again.
        trades.push(...answer.filter((t) => t.time > after && t.time < last));
        if (last - 1 <= after) break;
        after = last - 1;
        complete = after;
      }
    } catch (e) {
      const where = { exchange: venue.adapter.code, pair: market.id.pair, reason: errorMessage(e) };
      this.log.warn(where, 'markets: trades not read, candles kept without buy/sell splits');
      return closed;
    }
    return withTradeSplits(closed, trades, complete);
  }

  /** Runs one request of a market and records the outcome; never throws. */
  private async attempt(venue: VenueState, market: PolledMarket, work: () => Promise<void>): Promise<void> {
    if (this.controller.signal.aborted) return;
    try {
      await work();
      const now = new Date(this.now());
      recordSuccess(market.health, now);
    } catch (e) {
      if (this.controller.signal.aborted) return;
      const rateLimited = e instanceof VenueRequestError && e.rateLimited;
      const reason = e instanceof VenueRequestError ? e.message : `storage: ${errorMessage(e)}`;
      const now = new Date(this.now());
      recordFailure(market.health, reason, rateLimited, now);
      if (market.health.consecutive_failures === 1)
        this.log.warn({ exchange: venue.adapter.code, pair: market.id.pair, reason }, 'markets: venue request failed');
    }
  }
}
