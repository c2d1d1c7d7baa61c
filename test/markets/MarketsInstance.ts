import * as path from 'node:path';
import { MarketsPlugin } from '../../plugins/markets/plugin';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { Quote } from '../../plugins/markets/Records';
import { ExchangeAdapter } from '../../plugins/markets/venues/Adapter';
import { ADAPTERS } from '../../plugins/markets/venues/registry';
import { VenueState } from '../../plugins/markets/poll/VenueState';
import { startTestInstance, TestInstance } from '../support/TestInstance';

/** An instance with only the markets plugin, on the checkout's tables.yaml. */
export async function startMarketsInstance(): Promise<{ t: TestInstance; service: MarketsService }> {
  const t = await startTestInstance({
    plugins: [MarketsPlugin],
    enabled: ['markets'],
    config: { catalogFile: path.resolve('tables.yaml') },
  });
  return { t, service: t.app.container.resolve(MarketsService) };
}

/** A live venue restricted to one market and without request spacing, for tests. */
export function testVenue(code: string, quote: Quote, baseUrl?: string): VenueState {
  const a = ADAPTERS.find((x) => x.code === code);
  if (!a) throw new Error(`no adapter ${code}`);
  const adapter: ExchangeAdapter = { ...a, quotes: [quote], minIntervalMs: 0 };
  return new VenueState(adapter, baseUrl ?? a.baseUrl, 'live', true);
}
