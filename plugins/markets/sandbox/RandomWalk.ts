import { seededRandom } from '../../../framework';

/** One simulated trade: a rise in price was a taker buy, a fall a taker sell. */
export interface SimTrade {
  time: number;
  price: number;
  /** Base volume, 8 decimals. */
  size: number;
  takerBuy: boolean;
}

/** One simulated minute: OHLC, trade count, base volume and VWAP (plain numbers, formatted on output), its trades. */
export interface SimMinute {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  vwap: number;
  volume: number;
  count: number;
  trades: SimTrade[];
}

const MINUTE = 60_000;

/**
 * A seeded random walk of trades, one market: each minute has 1–12 trades whose log-price moves by
 * small normal steps and whose sizes are random. Minutes are generated on demand from a fixed origin,
 * so the same seed and origin always give the same history.
 */
export class RandomWalk {
  private readonly minutes: SimMinute[] = [];
  private readonly rnd: () => number;
  private price: number;

  constructor(
    seed: number,
    startPrice: number,
    /** The first minute (unix ms, minute-aligned). */
    readonly origin: number,
    private readonly volatility = 0.0003,
  ) {
    this.rnd = seededRandom(seed);
    this.price = startPrice;
  }

  /** Minutes from the origin up to and including the one holding `now` (that one is still open). */
  upTo(now: number): SimMinute[] {
    const last = Math.floor(now / MINUTE) * MINUTE;
    for (let t = this.origin + this.minutes.length * MINUTE; t <= last; t += MINUTE) this.minutes.push(this.minute(t));
    return this.minutes;
  }

  private minute(time: number): SimMinute {
    const open = this.price;
    let [high, low, volume, quote] = [open, open, 0, 0];
    const count = 1 + Math.floor(this.rnd() * 12);
    const trades: SimTrade[] = [];
    for (let i = 0; i < count; i++) {
      const before = this.price;
      this.price *= Math.exp(this.volatility * this.gauss());
      // Sizes as the venue prints them (8 decimals), so the minute's volume is their exact sum.
      const size = Math.round((5 + this.rnd() * 2000) * 1e8) / 1e8;
      high = Math.max(high, this.price);
      low = Math.min(low, this.price);
      volume += size;
      quote += size * this.price;
      const at = time + Math.floor(((i + 1) * MINUTE) / (count + 1));
      trades.push({ time: at, price: this.price, size, takerBuy: this.price >= before });
    }
    return { time, open, high, low, close: this.price, vwap: quote / volume, volume, count, trades };
  }

  private gauss(): number {
    const u = Math.max(this.rnd(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.rnd());
  }
}
