/**
 * What a venue's status says: healthy while its last request succeeded; otherwise why not (timeout,
 * HTTP status, rate limit, bad JSON, wrong schema) and since when. Kept per market too, because a
 * venue can fail for one pair (delisted) and work for the others.
 */
export type HealthState = 'ok' | 'failing' | 'rate_limited' | 'pending' | 'disabled';

export interface Health {
  state: HealthState;
  /** The last failure's reason, kept after recovery for operators. */
  last_error: string | null;
  last_error_time: Date | null;
  last_success: Date | null;
  consecutive_failures: number;
}

export function pendingHealth(): Health {
  return { state: 'pending', last_error: null, last_error_time: null, last_success: null, consecutive_failures: 0 };
}

export function recordSuccess(h: Health, now: Date): void {
  h.state = 'ok';
  h.last_success = now;
  h.consecutive_failures = 0;
}

export function recordFailure(h: Health, reason: string, rateLimited: boolean, now: Date): void {
  h.state = rateLimited ? 'rate_limited' : 'failing';
  h.last_error = reason;
  h.last_error_time = now;
  h.consecutive_failures++;
}
