import { InstanceConfig } from '../../framework';
import { DEFAULT_SCHEDULE, PollSchedule } from './poll/MarketPoller';
import { ExchangeAdapter } from './venues/Adapter';
import { ADAPTERS } from './venues/registry';

/** The exchange whose REST shape the offline simulation speaks. */
export const SIMULATED_EXCHANGE = 'kraken';

/** What the plugin does on this instance, from the `markets:` section of the instance config. */
export interface MarketsSettings {
  /** `markets.enabled: false`: no polling at all (tables and routes stay, with what is stored). */
  enabled: boolean;
  /**
   * Without a node (`--rpc`) the instance runs offline: the sandbox chain, and a simulated exchange
   * in Kraken's shape instead of the real venues.
   */
  simulated: boolean;
  venues: readonly ExchangeAdapter[];
  schedule: PollSchedule;
}

export function marketsSettings(config: InstanceConfig): MarketsSettings {
  const m = config.markets ?? {};
  const simulated = !config.rpc;
  const wanted = simulated ? [SIMULATED_EXCHANGE] : (m.exchanges ?? ADAPTERS.map((a) => a.code));
  const unknown = wanted.filter((code) => !ADAPTERS.some((a) => a.code === code));
  if (unknown.length > 0)
    throw new Error(
      `markets.exchanges: unknown exchange(s) ${unknown.join(', ')}; known: ${ADAPTERS.map((a) => a.code).join(', ')}`,
    );
  return {
    enabled: m.enabled ?? true,
    simulated,
    venues: ADAPTERS.filter((a) => wanted.includes(a.code)),
    schedule: {
      ...DEFAULT_SCHEDULE,
      backfillMs: (m.backfillHours ?? DEFAULT_SCHEDULE.backfillMs / 3_600_000) * 3_600_000,
    },
  };
}
