import type { DexTokenRef } from '../../core/DexAdapter';
import { type PairStorage, pairStorageType, reservesAnswerType, startSwapType } from './types.gen';

/*
 * Why: the adapter's reading of a real pair's storage and calls, through the readers `npm run gen` writes from the
 * real types of `types.ts` (which the simulator shares).
 */

export type { PairStorage };
/** A Spicy token: an FA2 contract and its id, or an FA1.2 contract with no id. */
export type SpicyToken = PairStorage['token0'];

/** FA2 when the token has an id, FA1.2 otherwise (Spicy's `option %token_id`). */
export const tokenRef = (x: { fa2_address: string; token_id?: bigint | null }): DexTokenRef =>
  typeof x.token_id === 'bigint'
    ? { standard: 'fa2', contract: x.fa2_address, tokenId: x.token_id }
    : { standard: 'fa1.2', contract: x.fa2_address };

/** A real pair's raw storage decoded, or undefined when it is not one (any other contract's storage). */
export const pairStorage = (raw: unknown): PairStorage | undefined => pairStorageType.decode(raw);

/** `start_swap`'s raw argument: who gets the output and how much of each token is asked out. */
export function startSwap(raw: unknown): { to: string; out: [bigint, bigint] } | undefined {
  const p = startSwapType.decode(raw);
  return p && { to: p._to, out: [p.amount0Out, p.amount1Out] };
}

/** The LP supply in a `get_reserves` answer (raw), or undefined. */
export const answeredLiquidity = (raw: unknown): bigint | undefined => reservesAnswerType.decode(raw)?.total_liquidity;
