import { bigOrZero, type Row } from '../../framework';

/**
 * An income row's performance and contribution, in hundredths of a percent (tzindex's 10000 = 100%),
 * from its own columns; nothing until the cycle's expected income is known (all its rights are in).
 * - performance: income earned, minus accusation losses, against the expected income (floor 0);
 * - contribution: round-0 blocks baked plus attestation slots used, against the rights received.
 * Both run with the cycle and are final at its end (attesting rewards are paid at the last block).
 * `patch`: changes about to be applied to the row, which the scores then include.
 */
export function incomeScores(row: Row, patch: Row = {}): Row {
  // The row as the patch will leave it, read column by column (no copy of a wide row per block).
  const col = (c: string): bigint => bigOrZero(c in patch ? patch[c] : row[c]);
  const expectedValue = 'expected_income' in patch ? patch.expected_income : row.expected_income;
  if (expectedValue === null || expectedValue === undefined) return {};
  const expected = bigOrZero(expectedValue);
  const diff = col('total_income') - col('accusation_loss') - expected;
  const performance = expected > 0n ? bigMax(0n, 10000n + (diff * 10000n) / expected) : 10000n;
  const rights = col('n_baking_rights') + col('n_endorsing_rights');
  const used = col('n_baking_rights') - col('n_blocks_not_baked') + col('n_slots_endorsed');
  const contribution = rights > 0n ? bigMin(10000n, (used * 10000n) / rights) : 10000n;
  return { performance_percent: Number(performance), contribution_percent: Number(contribution) };
}

const bigMax = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);
