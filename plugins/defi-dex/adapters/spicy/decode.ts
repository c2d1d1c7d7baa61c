import { plainValue } from '../../../../framework';
import type { DexTokenRef } from '../../core/DexAdapter';
import { PAIR_STORAGE, RESERVES_ANSWER, START_SWAP } from './types';

/*
 * Why: the adapter's reading of a real pair's storage and calls (`types.ts` holds only the real types, which the
 * simulator shares).
 */

export interface SpicyToken {
  fa2_address: string;
  token_id?: bigint | null;
}

export interface PairStorage {
  token0: SpicyToken;
  token1: SpicyToken;
  reserve0: bigint;
  reserve1: bigint;
  pending: unknown;
}

export const isToken = (v: unknown): v is SpicyToken => typeof (v as SpicyToken | undefined)?.fa2_address === 'string';

/** FA2 when the token has an id, FA1.2 otherwise (Spicy's `option %token_id`). */
export const tokenRef = (x: SpicyToken): DexTokenRef =>
  typeof x.token_id === 'bigint'
    ? { standard: 'fa2', contract: x.fa2_address, tokenId: x.token_id }
    : { standard: 'fa1.2', contract: x.fa2_address };

/** A real pair's raw storage decoded, or undefined when it is not one (any other contract's storage). */
export function pairStorage(raw: unknown): PairStorage | undefined {
  const s = plainValue(PAIR_STORAGE, raw) as Partial<PairStorage> | undefined;
  const reserves = typeof s?.reserve0 === 'bigint' && typeof s.reserve1 === 'bigint';
  const ok = reserves && isToken(s?.token0) && isToken(s?.token1);
  return ok ? (s as PairStorage) : undefined;
}

/** `start_swap`'s raw argument: who gets the output and how much of each token is asked out. */
export function startSwap(raw: unknown): { to: string; out: [bigint, bigint] } | undefined {
  const p = plainValue(START_SWAP, raw) as { _to?: unknown; amount0Out?: unknown; amount1Out?: unknown } | undefined;
  const ok = typeof p?._to === 'string' && typeof p.amount0Out === 'bigint' && typeof p.amount1Out === 'bigint';
  return ok ? { to: p._to as string, out: [p.amount0Out as bigint, p.amount1Out as bigint] } : undefined;
}

/** The LP supply in a `get_reserves` answer (raw), or undefined. */
export function answeredLiquidity(raw: unknown): bigint | undefined {
  const v = (plainValue(RESERVES_ANSWER, raw) as { total_liquidity?: unknown } | undefined)?.total_liquidity;
  return typeof v === 'bigint' ? v : undefined;
}
