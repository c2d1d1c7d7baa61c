import { bps, decimal, isqrt, scaled, type TextRow, type UsdPrices } from '../../../framework/defi';
import { Leg, PoolInfo } from './PoolBook';

const E36 = 10n ** 36n;

const usdText = (v: bigint | null): string | null => (v === null ? null : decimal(v));
const bpsText = (part: bigint | null, whole: bigint | null): string | null =>
  part === null || whole === null || whole === 0n ? null : decimal(bps(part, whole), 2);

/**
 * A dex_position row as the SDK's defi.DexPosition, valued against the pool's current reserves:
 * value_x = shares·supply_x/total_shares (floor, total_shares = the pool's LP supply); USD values at
 * the current prices; pnl = position value + value withdrawn − value deposited (both frozen at event
 * time); fee income = the growth of √(A·B)/S per share since `growth_entry`, turned back into A and B
 * at the current reserves (two-token pools; null for others and without an entry growth).
 */
export async function positionRecord(r: TextRow, pool: PoolInfo, usd: UsdPrices): Promise<Record<string, unknown>> {
  const shares = BigInt(r.shares!);
  const total = pool.supply('lp');
  const values: Partial<Record<Leg, bigint>> = {};
  for (const l of pool.legs) values[l] = total === 0n ? 0n : (shares * pool.supply(l)) / total;
  const fees = feeIncome(r, pool, shares);

  const positionUsd = await pool.value(usd, values);
  const liquidityUsd = await pool.value(usd, Object.fromEntries(pool.legs.map((l) => [l, pool.supply(l)])));
  const shareUsd =
    liquidityUsd === null ? null : total === 0n ? 0n : (liquidityUsd * 10n ** BigInt(pool.decimals('lp'))) / total;
  const feeUsd = fees === null ? null : await pool.value(usd, fees);
  const openUsd = r.open_value_usd === null ? null : scaled(r.open_value_usd);
  const withdrawn = pool.legs.some((l) => BigInt(r[`withdrawn_${l}`] ?? '0') !== 0n);
  const closeUsd = r.close_value_usd !== null ? scaled(r.close_value_usd) : withdrawn ? null : 0n;
  const pnl = positionUsd === null || openUsd === null || closeUsd === null ? null : positionUsd + closeUsd - openUsd;

  const legs = (prefix: string, of: (l: Leg) => unknown): Record<string, unknown> =>
    Object.fromEntries(pool.legs.map((l) => [`${prefix}_${l}`, of(l)]));
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    owner: r.owner,
    ...legs('decimals', (l) => pool.decimals(l)),
    decimals_lp: pool.decimals('lp'),
    total_shares: total.toString(),
    shares: r.shares,
    ...legs('value', (l) => values[l]!.toString()),
    shares_minted: r.shares_minted,
    shares_burned: r.shares_burned,
    shares_sent: r.shares_sent,
    shares_received: r.shares_received,
    ...legs('deposited', (l) => r[`deposited_${l}`] ?? '0'),
    ...legs('withdrawn', (l) => r[`withdrawn_${l}`] ?? '0'),
    is_closed: r.is_closed === 'true',
    open_block: Number(r.open_height),
    open_time: r.open_time,
    ...(r.close_height === null ? {} : { close_block: Number(r.close_height), close_time: r.close_time }),
    position_value_usd: usdText(positionUsd),
    share_value_usd: usdText(shareUsd),
    open_value_usd: r.open_value_usd,
    close_value_usd: usdText(closeUsd),
    fee_income_usd: usdText(feeUsd),
    fee_income_bps: bpsText(feeUsd, openUsd),
    pnl_usd: usdText(pnl),
    pnl_bps: bpsText(pnl, openUsd),
  };
}

/** Raw A and B amounts the position earned in fees: shares·Δ(√(A·B)/S)·x/√(A·B) for x = A, B. */
function feeIncome(r: TextRow, pool: PoolInfo, shares: bigint): Partial<Record<Leg, bigint>> | null {
  if (r.growth_entry === null || pool.legs.length !== 2) return null;
  const [a, b, s] = [pool.supply('a'), pool.supply('b'), pool.supply('lp')];
  const root = isqrt(a * b * E36); // √(A·B)·10^18
  if (s === 0n || root === 0n) return { a: 0n, b: 0n };
  const growth = root / s - scaled(r.growth_entry); // Δ(√(A·B)/S)·10^18
  return { a: (shares * growth * a) / root, b: (shares * growth * b) / root };
}
