import { ROUTER_ADD, ROUTER_ENTRYPOINTS, ROUTER_REMOVE, ROUTER_SWAP_EXACT_IN, ROUTER_SWAP_EXACT_OUT } from './types';
import { routerAddType, routerRemoveType, routerSwapExactInType, routerSwapExactOutType } from './types.gen';

/** Why: the router's calls read with the generated readers of their real types (each has the user's `_to`). */
const READERS = new Map<unknown, { decode(raw: unknown): { _to: string } | undefined }>([
  [ROUTER_SWAP_EXACT_IN, routerSwapExactInType],
  [ROUTER_SWAP_EXACT_OUT, routerSwapExactOutType],
  [ROUTER_ADD, routerAddType],
  [ROUTER_REMOVE, routerRemoveType],
]);

/** The `_to` (recipient) of a router call given as raw Micheline, read with the router's types. */
export function routerRecipient(entrypoint: string | undefined, raw: unknown): string | undefined {
  return READERS.get(entrypoint && ROUTER_ENTRYPOINTS[entrypoint])?.decode(raw)?._to;
}
