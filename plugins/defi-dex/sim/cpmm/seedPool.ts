import type { GenesisContext } from '../../../../framework/sandbox/extension';
import type { CpmmPool } from './CpmmPool';

/**
 * Originates a pool with deep reserves; the LP shares of the initial liquidity are spread over the
 * first holders, so removals and farm stakes have owners.
 */
export function seedPool(
  g: GenesisContext,
  pool: CpmmPool,
  tokenReserve: bigint,
  otherReserve: bigint,
  lqt: bigint,
  tezBalance: bigint,
): void {
  g.originate(pool, tezBalance, (diff) => {
    pool.init(diff, tokenReserve, otherReserve, lqt);
    pool.token.mint(diff, pool.address, tokenReserve);
    if (pool.tokenB) pool.tokenB.mint(diff, pool.address, otherReserve);
    const lpHolders = g.holders.slice(0, 8);
    lpHolders.forEach((h, i) => {
      const share =
        i === lpHolders.length - 1
          ? lqt - (lqt / BigInt(lpHolders.length)) * BigInt(i)
          : lqt / BigInt(lpHolders.length);
      if (pool.lqt) pool.lqt.mint(diff, h, share);
      else diff.update(pool.state.shares as number, { string: h }, pool.ledgerValue(share));
    });
  });
}
