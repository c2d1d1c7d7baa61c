import type { DexTokenRef } from '../../core/DexAdapter';

/**
 * What Plenty's volatile and stable pools share, so both adapters read them the same way: a token is
 * named by address, id and an "is FA2" flag, and the fee is a divisor (fee = amount/lpFee).
 */
export function plentyToken(address: string, id: bigint | undefined, fa2: boolean | undefined): DexTokenRef {
  return fa2 ? { standard: 'fa2', contract: address, tokenId: id ?? 0n } : { standard: 'fa1.2', contract: address };
}

/** The rate of a fee divisor in basis points, 10000/divisor with two decimals (`1000` → `"10.00"`). */
export function divisorBps(divisor: bigint): string {
  const hundredths = 1_000_000n / divisor;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}
