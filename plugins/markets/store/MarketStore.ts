import type { Knex } from 'knex';
import { BulkWriter, Catalog, CatalogRows, Database, Logger, Row, TableDef } from '../../../framework';
import { CandleRecord, MarketId, TickerRecord } from '../Records';

const TICKERS = 'market_ticker';
const CANDLES = 'market_candle';

/**
 * The markets tables: tickers (one row per market, overwritten) and closed 1-minute candles
 * (appended once). Writes go through the framework's BulkWriter, one transaction at a time (so the
 * candle table's row ids commit in order, as series rollups require); a failed write rolls back and
 * leaves nothing half-written. The tables have no height column: chain reorgs never touch them.
 */
export class MarketStore {
  readonly tickers: TableDef;
  readonly candles: TableDef;
  private readonly writer: BulkWriter;
  private queue: Promise<unknown> = Promise.resolve();
  /** The newest stored candle per market (unix ms), so a candle is appended only once. */
  private readonly newest = new Map<string, number>();

  constructor(
    private readonly db: Database,
    catalog: Catalog,
    private readonly log: Logger,
  ) {
    const table = (code: string): TableDef => {
      const t = catalog.table(code);
      if (!t) throw new Error(`markets: table '${code}' is not in the catalog (tables.yaml, plugin markets)`);
      return t;
    };
    this.tickers = table(TICKERS);
    this.candles = table(CANDLES);
    this.writer = new BulkWriter(db.kind);
  }

  /** The newest stored candle time of a market (loaded from the database the first time). */
  async newestCandle(m: MarketId, q: Knex = this.db.reader): Promise<number | undefined> {
    const key = keyOf(m);
    if (!this.newest.has(key)) {
      const [row] = await q
        .withSchema(this.candles.schema)
        .from(this.candles.storage)
        .where({ exchange: m.exchange, pair: m.pair })
        .max({ t: 'time' });
      if (row?.t) this.newest.set(key, new Date(row.t).getTime());
    }
    return this.newest.get(key);
  }

  async saveTicker(m: MarketId, t: TickerRecord): Promise<void> {
    const row: Row = { exchange: m.exchange, pair: m.pair, base: m.base, quote: m.quote, ...t };
    await this.serial((trx) => this.writer.upsert(trx, this.tickers, [row], ['exchange', 'pair']));
  }

  /** Appends the candles newer than the newest stored one; returns how many were new. */
  async saveCandles(m: MarketId, candles: readonly CandleRecord[]): Promise<number> {
    const key = keyOf(m);
    return this.serial(async (trx) => {
      const after = (await this.newestCandle(m, trx)) ?? -Infinity;
      const fresh = candles.filter((c) => c.time > after);
      if (fresh.length === 0) return 0;
      const rows = fresh.map((c): Row => ({ exchange: m.exchange, pair: m.pair, ...c, time: new Date(c.time) }));
      try {
        await this.writer.append(trx, this.candles, rows);
      } catch (e) {
        this.newest.delete(key);
        throw e;
      }
      this.newest.set(key, fresh[fresh.length - 1].time);
      return fresh.length;
    });
  }

  /** Rows of the ticker table rendered by their column types (decimals as numbers, times RFC3339). */
  tickerRows(): CatalogRows {
    return new CatalogRows(this.db, this.tickers);
  }

  /** First and last candle time of a market, or undefined without candles. */
  async candleSpan(m: MarketId): Promise<{ first: Date; last: Date } | undefined> {
    const [row] = await this.db.reader
      .withSchema(this.candles.schema)
      .from(this.candles.storage)
      .where({ exchange: m.exchange, pair: m.pair })
      .min({ first: 'time' })
      .max({ last: 'time' });
    return row?.first ? { first: new Date(row.first), last: new Date(row.last) } : undefined;
  }

  /** The markets that have a ticker (also those of venues no longer configured). */
  async storedMarkets(): Promise<MarketId[]> {
    return this.db.reader
      .withSchema(this.tickers.schema)
      .from(this.tickers.storage)
      .select('exchange', 'pair', 'base', 'quote');
  }

  /** Waits for the writes in flight. */
  async drain(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  private serial<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => undefined).then(() => this.db.writer.transaction(work));
    this.queue = run.catch((e) => this.log.warn({ err: e }, 'markets: write failed, rolled back'));
    return run;
  }
}

function keyOf(m: MarketId): string {
  return `${m.exchange}/${m.pair}`;
}
