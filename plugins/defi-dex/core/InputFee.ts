import type { DexFee } from './DexAdapter';

/**
 * The fee of a constant-product pool that credits only `amount·(10000−bps)/10000` of the input
 * (Dexter and its forks: `in·997/1000`, `in·999/1000`): what the truncation leaves out of the
 * reserves' curve, so adapters report the fee exactly as the contract takes it.
 */
export function inputFee(amount: bigint, bps: bigint, token: number): DexFee {
  return { amount: amount - (amount * (10000n - bps)) / 10000n, bps: String(bps), token };
}
