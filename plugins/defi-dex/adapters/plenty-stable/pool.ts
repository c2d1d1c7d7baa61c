import type { DexPoolDecl, DexSupply, DexTokenRef, DexTradeAction } from '../../core/DexAdapter';
import { divisorBps } from '../plenty/common';

export const ENTITY = 'plenty_stable';

/**
 * What both kinds of Plenty stable pool (token/token and ctez/tez) say about themselves in their
 * storage, so declaration, supplies and fees are read one way for both.
 */
export interface StablePool {
  readonly tokens: readonly DexTokenRef[];
  /** The LP token (a Plenty FA1.2 with `mint`/`burn`). */
  readonly lqtAddress: string;
  readonly lqtTotal: bigint;
  readonly reserves: readonly bigint[];
  /** Fee divisor: the fee is ⌊W/lpFee⌋ of the curve's output W. */
  readonly lpFee: bigint;
  /** The storage's `state`: when on, the fee leaves the reserves for the vePLY voters (forwardFee). */
  readonly feeToVoters: boolean;
}

const feesBps = (p: StablePool): string => (p.lpFee > 0n ? divisorBps(p.lpFee) : '0');

export function declaration(contract: string, p: StablePool): DexPoolDecl {
  return {
    contract,
    pairId: 0,
    entity: ENTITY,
    tokens: p.tokens,
    lp: { standard: 'fa1.2', contract: p.lqtAddress },
    feesBps: feesBps(p),
  };
}

export const supplyOf = (p: StablePool): DexSupply => ({
  reserves: p.reserves,
  lpSupply: p.lqtTotal,
  feesBps: feesBps(p),
});

/**
 * The fee a stable pool took from a trade's output `out` (paid in token `token`). The contract pays
 * W − ⌊W/lpFee⌋ of the curve's output W; W is recovered from what was paid as the smallest W that pays
 * `out` (for tokens of precision 1 the fee is exact, or one raw unit under when two W pay the same).
 */
export function outputFee(out: bigint, p: StablePool, token: number): DexTradeAction['fees'] {
  if (p.lpFee <= 1n || out <= 0n) return {};
  const q = out / (p.lpFee - 1n);
  const amount = out % (p.lpFee - 1n) === 0n && q > 0n ? q - 1n : q;
  const fee = { amount, bps: feesBps(p), token };
  return p.feeToVoters ? { incentive: fee } : { lp: fee };
}
