/** The dex_pool columns a marginal price is read from, as any reader holds them (bigint or text). */
export interface PriceColumns {
  supply_a?: unknown;
  supply_b?: unknown;
  marginal_a?: unknown;
  marginal_b?: unknown;
}

/**
 * The raw amounts of A and B whose ratio is a pool row's marginal price (B per A): the pool's own
 * marginal amounts where it keeps them (concentrated liquidity: 2^160 and sqrt_price²), else its
 * supplies.
 */
export function marginalAmounts(row: PriceColumns): [bigint, bigint] {
  const own = row.marginal_a != null && row.marginal_b != null;
  return [amount(own ? row.marginal_a : row.supply_a), amount(own ? row.marginal_b : row.supply_b)];
}

const amount = (v: unknown): bigint => BigInt(String(v ?? 0));
