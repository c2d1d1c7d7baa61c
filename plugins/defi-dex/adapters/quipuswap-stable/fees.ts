import type { DexFee, DexTradeAction } from '../../core/DexAdapter';
import { FEE_DENOMINATOR, feeBps, type StablePool } from './pool';

/**
 * Why: a StableSwap trade's fees are cut from the curve's output dy (all in the output token): the
 * LP part stays in the reserves, the referral, stakers' and the factory's dev parts leave them. The
 * dev rate lives in the factory (read by a view), so dy is recovered from what the reserves and the
 * receiver saw: x = out + (fees that left) = dy − (its LP cut), the smallest such dy (exact, or one
 * raw unit under when two dy give the same x). Without stakers their share goes to the LPs.
 */
export function swapFees(
  out: bigint,
  reserveBefore: bigint,
  reserveAfter: bigint,
  p: StablePool,
  token: number,
): DexTradeAction['fees'] {
  const left = reserveBefore - reserveAfter - out;
  if (out <= 0n || left < 0n) return {};
  const staked = p.totalStaked > 0n;
  // The LP part as the contract cuts it: its own rate, plus the stakers' rate when nothing is staked, each floored.
  const lpCut = (dy: bigint) =>
    (dy * p.fee.lp) / FEE_DENOMINATOR + (staked ? 0n : (dy * p.fee.stakers) / FEE_DENOMINATOR);
  const x = out + left;
  let dy = (x * FEE_DENOMINATOR) / (FEE_DENOMINATOR - p.fee.lp - (staked ? 0n : p.fee.stakers));
  while (dy > x && dy - 1n - lpCut(dy - 1n) >= x) dy--;
  while (dy - lpCut(dy) < x) dy++;
  const part = (rate: bigint) => (dy * rate) / FEE_DENOMINATOR;
  const fee = (amount: bigint, bps: string): DexFee => ({ amount, bps, token });
  const ref = part(p.fee.ref);
  const stakers = staked ? part(p.fee.stakers) : 0n;
  const dev = left - ref - stakers;
  return {
    lp: fee(dy - x, feeBps(p.fee.lp + (staked ? 0n : p.fee.stakers))),
    ...(p.fee.ref > 0n ? { referral: fee(ref, feeBps(p.fee.ref)) } : {}),
    ...(staked && p.fee.stakers > 0n ? { incentive: fee(stakers, feeBps(p.fee.stakers)) } : {}),
    ...(dev > 0n ? { dev: fee(dev, feeBps((dev * FEE_DENOMINATOR) / dy)) } : {}),
  };
}
