import {
  type TextRow,
  positionLifeFields,
  sameNamed,
  sidedEventRecord,
  sidedPoolFields,
  sidedRowFields,
  type SidedPool,
  type UsdPrices,
} from '../../../framework/defi';
import { interestAt, marketRates } from '../Interest';

/**
 * Lending rows as the SDK's defi.LendingPool, defi.LendingEvent and defi.LendingPosition. USD values
 * are read-time values (current prices, as the DEX's liquidity and position values), null without a
 * price path; values the contract does not tell (interest, stake ids) are null, which Go decodes as
 * zero.
 */

/** A lending market names a debt and a collateral token: the DeFi core's two-sided pool book serves it unchanged. */
export type LendInfo = SidedPool<'debt' | 'collateral'>;

export async function lendPoolRecord(pool: LendInfo, usd: UsdPrices): Promise<Record<string, unknown>> {
  const r = pool.row;
  return {
    ...sidedPoolFields(pool),
    ...sameNamed(r, ['total_collateral', 'total_debt']),
    num_deposits: Number(r.num_deposits),
    num_borrows: Number(r.num_borrows),
    ...(await pool.valuesUsd(usd, {
      collateral_value_usd: ['collateral', r.total_collateral],
      debt_value_usd: ['debt', r.total_debt],
    })),
  };
}

export const lendEventRecord = sidedEventRecord<'debt' | 'collateral'>([
  'event_type',
  'owner',
  'volume',
  'debt',
  'collateral',
  'fee',
  'interest',
]);

/**
 * The supplied balance at the collateral token's price; the interest owed accrues in the debt token.
 * Interest is brought to the market's latest rates here (Interest.ts marketRates), not stored per call.
 */
export async function lendPositionRecord(r: TextRow, pool: LendInfo, usd: UsdPrices): Promise<Record<string, unknown>> {
  const rates = marketRates(pool.row);
  const now: Record<string, string | null> = {
    ...sameNamed(r, ['interest_earned', 'interest_paid', 'interest_pending']),
  };
  if (rates) for (const [column, value] of Object.entries(interestAt(r, rates))) now[column] = String(value);
  return {
    ...sidedRowFields(r, pool),
    ...sameNamed(r, [
      'owner',
      'balance',
      'debt',
      'deposited',
      'withdrawn',
      'borrowed',
      'repaid',
      'liquidated',
      'sent',
      'received',
    ]),
    ...now,
    is_collateral: r.is_collateral === null ? null : r.is_collateral === 'true',
    ...positionLifeFields(r),
    ...(await pool.valuesUsd(usd, {
      position_value_usd: ['collateral', r.balance],
      interest_pending_usd: ['debt', now.interest_pending],
    })),
  };
}
