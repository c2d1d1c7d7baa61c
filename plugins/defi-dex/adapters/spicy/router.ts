import { plainValue } from '../../../../framework';
import { ROUTER_ENTRYPOINTS } from './types';

/** The `_to` (recipient) of a router call given as raw Micheline, read with the router's types. */
export function routerRecipient(entrypoint: string | undefined, raw: unknown): string | undefined {
  const type = entrypoint ? ROUTER_ENTRYPOINTS[entrypoint] : undefined;
  const v = type ? (plainValue(type, raw) as { _to?: unknown } | undefined) : undefined;
  return typeof v?._to === 'string' ? v._to : undefined;
}
