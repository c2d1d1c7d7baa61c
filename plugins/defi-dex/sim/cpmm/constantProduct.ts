/**
 * The constant-product step x·y = k of the reserve pools the sandbox simulates: what `amountIn` buys of
 * `outPool` when the input counts for `num`/`den` of itself (the fee kept in the pool), rounded down.
 */
export function constantProductOut(amountIn: bigint, inPool: bigint, outPool: bigint, num = 1n, den = 1n): bigint {
  return (amountIn * num * outPool) / (inPool * den + amountIn * num);
}
