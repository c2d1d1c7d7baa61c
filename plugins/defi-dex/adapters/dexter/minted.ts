/**
 * The LP shares a Dexter v1 `addLiquidity` minted, recovered from what the call itself shows: the tez
 * sent (`amount`) and the storage after it. Dexter keeps shares in its own `accounts` big map and emits
 * nothing for them, and the big map diff only gives the owner's new balance, so the contract's own
 * rule is inverted: `minted = amount·lqtTotal/xtzPool` (before values, truncated), where
 * `xtzPool = xtzPoolAfter − amount` and `lqtTotal = lqtTotalAfter − minted`. With X = xtzPool and
 * X' = xtzPoolAfter, `lqtTotalAfter = ⌊lqtTotal·X'/X⌋`, which grows strictly with lqtTotal: at most
 * one lqtTotal fits, the least one reaching lqtTotalAfter. Undefined when none does (not this rule).
 */
export function dexterMinted(amount: bigint, xtzPoolAfter: bigint, lqtTotalAfter: bigint): bigint | undefined {
  const xtzPool = xtzPoolAfter - amount;
  // The first deposit into an empty pool mints as many shares as mutez sent.
  if (xtzPool <= 0n) return lqtTotalAfter === amount ? amount : undefined;
  const lqtTotal = (lqtTotalAfter * xtzPool + xtzPoolAfter - 1n) / xtzPoolAfter;
  return lqtTotal + (amount * lqtTotal) / xtzPool === lqtTotalAfter ? lqtTotalAfter - lqtTotal : undefined;
}
