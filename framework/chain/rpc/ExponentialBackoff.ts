export interface BackoffOptions {
  /** Delay before the first retry (ms). Default 250. */
  baseMs?: number;
  /** Cap of any delay, jitter included (ms). Default 10 000. */
  maxMs?: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
  /** Share of the delay that is randomized away, 0…1. Default 0.3. */
  jitter?: number;
  /** Source of randomness in [0, 1); inject `seededRandom(n)` for reproducible tests. */
  random?: () => number;
}

/**
 * Capped exponential backoff with subtractive jitter: attempt n waits
 * `min(maxMs, baseMs·factor^n) · (1 − jitter·random())`, so the cap holds even with jitter.
 */
export class ExponentialBackoff {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly factor: number;
  readonly jitter: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = Math.max(0, options.baseMs ?? 250);
    this.maxMs = Math.max(this.baseMs, options.maxMs ?? 10_000);
    this.factor = Math.max(1, options.factor ?? 2);
    this.jitter = Math.min(1, Math.max(0, options.jitter ?? 0.3));
    this.random = options.random ?? Math.random;
  }

  /** Delay (ms, integer) before retry number `attempt` (0 = first retry). */
  delay(attempt: number): number {
    const exponential = this.baseMs * this.factor ** Math.max(0, attempt);
    const capped = Math.min(this.maxMs, exponential);
    return Math.round(capped * (1 - this.jitter * this.random()));
  }
}
