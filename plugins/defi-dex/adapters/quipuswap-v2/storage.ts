import { plainValue, type BigMapDiff, type TypedValue } from '../../../../framework';
import type { DexTokenRef } from '../../core/DexAdapter';
import { quipuV2DexcoreCode, type QuipuV2DexcoreStorage, type TokensT } from './types.gen';

/**
 * DexCore's storage as the adapter reads it. The pair reserves and tokens live in big maps (`pairs`,
 * `tokens`, keyed by pair id), so a call's reserves after it are its `pairs` big map diff, decoded with
 * the contract's `pair_t` (`./types.ts`).
 */
export const NAT = { prim: 'nat' };

/** A pair's token (the contract's `token_t`). */
export type Token = TokensT['token_a'];

/** The inner record's parts a call reads: the ids of the `pairs` and `tokens` big maps and the fee rates. */
export interface DexCoreStorage {
  pairs: number;
  tokens: number;
  fees: QuipuV2DexcoreStorage['storage']['fees'];
}

/** The inner `storage` record of DexCore's full storage (`{storage, dex_core_lambdas, metadata}`). */
export function coreStorage(v: unknown): DexCoreStorage | undefined {
  const s = quipuV2DexcoreCode.storage(v)?.storage;
  return typeof s?.pairs === 'number' && typeof s.tokens === 'number'
    ? { pairs: s.pairs, tokens: s.tokens, fees: s.fees }
    : undefined;
}

/** Entries a call wrote to one of the big maps, decoded: pair id → value. */
export function written<T>(diffs: readonly BigMapDiff[], bigMap: number, type: TypedValue<T>): Map<bigint, T> {
  const out = new Map<bigint, T>();
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== bigMap || d.key === undefined) continue;
    const [id, value] = [plainValue(NAT, d.key), type.decode(d.value)];
    if (typeof id === 'bigint' && value !== undefined) out.set(id, value);
  }
  return out;
}

export function tokenRef(x: Token): DexTokenRef {
  if ('fa12' in x) return { standard: 'fa1.2', contract: x.fa12 };
  if ('fa2' in x) return { standard: 'fa2', contract: x.fa2.token, tokenId: x.fa2.id };
  return { standard: 'tez' };
}

/** A rate of precision 1e18 in basis points, as a decimal string (`2250000000000000` → `"22.5"`). */
export function rateBps(rate: bigint): string {
  const hundredths = (rate * 100n) / 10n ** 14n;
  const [int, frac] = [hundredths / 100n, hundredths % 100n];
  return frac === 0n ? String(int) : `${int}.${String(frac).padStart(2, '0').replace(/0$/, '')}`;
}
