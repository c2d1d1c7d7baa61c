import type { Row } from '../../framework';

const big = (v: unknown): bigint => BigInt((v ?? 0) as string | number | bigint);

/**
 * An income row's performance and contribution, in hundredths of a percent (tzindex's 10000 = 100%),
 * from its own columns; nothing until the cycle's expected income is known (all its rights are in).
 * - performance: income earned, minus accusation losses, against the expected income (floor 0);
 * - contribution: round-0 blocks baked plus attestation slots used, against the rights received.
 * Both run with the cycle and are final at its end (attesting rewards are paid at the last block).
 */
export function incomeScores(row: Row): Row {
  if (row.expected_income === null || row.expected_income === undefined) return {};
  const expected = big(row.expected_income);
  const diff = big(row.total_income) - big(row.accusation_loss) - expected;
  const performance = expected > 0n ? bigMax(0n, 10000n + (diff * 10000n) / expected) : 10000n;
  const rights = big(row.n_baking_rights) + big(row.n_endorsing_rights);
  const used = big(row.n_baking_rights) - big(row.n_blocks_not_baked) + big(row.n_slots_endorsed);
  const contribution = rights > 0n ? bigMin(10000n, (used * 10000n) / rights) : 10000n;
  return { performance_percent: Number(performance), contribution_percent: Number(contribution) };
}

const bigMax = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);
