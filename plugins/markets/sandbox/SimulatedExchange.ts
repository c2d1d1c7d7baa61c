import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { RandomWalk, SimMinute } from './RandomWalk';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Start prices of the simulated XTZ markets, in Kraken's pair names. */
const PAIRS: Record<string, number> = { XTZUSD: 0.75, XTZEUR: 0.7, XTZXBT: 0.0000085, XTZETH: 0.00025 };

/**
 * An offline exchange for the demo and tests: answers Kraken's public `Ticker`, `OHLC` and `Trades`
 * REST calls (same paths, same JSON; trades with their taker side) from seeded random walks with a
 * day of history, so the real Kraken adapter polls it unchanged. Prices have 6 (fiat) or 10 (crypto)
 * decimals, volumes 8, like Kraken's.
 */
export class SimulatedExchange {
  private readonly walks = new Map<string, RandomWalk>();
  private server?: Server;

  constructor(
    seed: number,
    private readonly now: () => number = Date.now,
  ) {
    const origin = Math.floor((now() - DAY - MINUTE) / MINUTE) * MINUTE;
    Object.entries(PAIRS).forEach(([pair, start], i) =>
      this.walks.set(pair, new RandomWalk(seed * 31 + i, start, origin)),
    );
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://sim');
    res.writeHead(200, { 'content-type': 'application/json' });
    const [pair, since] = [url.searchParams.get('pair') ?? '', Number(url.searchParams.get('since') ?? 0)];
    res.end(JSON.stringify(this.answer(url.pathname, pair, since)));
  }

  private answer(method: string, pair: string, since: number): unknown {
    const walk = this.walks.get(pair);
    const methods = ['/0/public/Ticker', '/0/public/OHLC', '/0/public/Trades'];
    if (!methods.includes(method)) return { error: ['EGeneral:Unknown method'] };
    if (!walk) return { error: ['EQuery:Unknown asset pair'] };
    const minutes = walk.upTo(this.now());
    if (method === '/0/public/Ticker') return { error: [], result: { [pair]: this.ticker(pair, minutes) } };
    if (method === '/0/public/Trades') return { error: [], result: this.trades(pair, minutes, since) };
    const last = Math.floor(this.now() / MINUTE) * 60;
    return { error: [], result: { [pair]: this.ohlc(pair, minutes, since), last } };
  }

  /** Kraken OHLC rows after `since` (unix s), at most 720, the open minute last. */
  private ohlc(pair: string, minutes: SimMinute[], since: number): unknown[] {
    const p = priceDigits(pair);
    return minutes
      .filter((m) => m.time / 1000 > since)
      .slice(-720)
      .map((m) => [
        m.time / 1000,
        m.open.toFixed(p),
        m.high.toFixed(p),
        m.low.toFixed(p),
        m.close.toFixed(p),
        m.vwap.toFixed(p),
        m.volume.toFixed(8),
        m.count,
      ]);
  }

  /** Kraken's trades after `since` (ns), at most 1000, up to now, with `last` the cursor of the next page. */
  private trades(pair: string, minutes: SimMinute[], since: number): Record<string, unknown> {
    const p = priceDigits(pair);
    const [after, now] = [since / 1e6, this.now()];
    const rows = minutes
      .flatMap((m) => m.trades)
      .filter((t) => t.time > after && t.time <= now)
      .slice(0, 1000)
      .map((t, i) => [t.price.toFixed(p), t.size.toFixed(8), t.time / 1000, t.takerBuy ? 'b' : 's', 'm', '', i + 1]);
    const lastMs = rows.length > 0 ? Math.round((rows[rows.length - 1][2] as number) * 1000) : Math.round(after);
    return { [pair]: rows, last: (BigInt(lastMs) * 1_000_000n).toString() };
  }

  /** Kraken's ticker: last trade, [today, last 24h] of volume/VWAP/trades/low/high, today's open. */
  private ticker(pair: string, minutes: SimMinute[]): unknown {
    const p = priceDigits(pair);
    const now = this.now();
    const today = stats(minutes.filter((m) => m.time >= Math.floor(now / DAY) * DAY));
    const day = stats(minutes.filter((m) => m.time > now - DAY));
    const last = minutes[minutes.length - 1].close;
    return {
      a: [(last * 1.0005).toFixed(p), '1', '1.000'],
      b: [(last * 0.9995).toFixed(p), '1', '1.000'],
      c: [last.toFixed(p), '10.00000000'],
      v: [today.volume.toFixed(8), day.volume.toFixed(8)],
      p: [today.vwap.toFixed(p), day.vwap.toFixed(p)],
      t: [today.count, day.count],
      l: [today.low.toFixed(p), day.low.toFixed(p)],
      h: [today.high.toFixed(p), day.high.toFixed(p)],
      o: today.open.toFixed(p),
    };
  }
}

/** Aggregate of consecutive minutes (the open minute included). */
function stats(ms: SimMinute[]): Omit<SimMinute, 'time' | 'close' | 'trades'> {
  const volume = ms.reduce((s, m) => s + m.volume, 0);
  return {
    open: ms[0].open,
    high: Math.max(...ms.map((m) => m.high)),
    low: Math.min(...ms.map((m) => m.low)),
    vwap: ms.reduce((s, m) => s + m.vwap * m.volume, 0) / volume,
    volume,
    count: ms.reduce((s, m) => s + m.count, 0),
  };
}

function priceDigits(pair: string): number {
  return pair.endsWith('USD') || pair.endsWith('EUR') ? 6 : 10;
}
