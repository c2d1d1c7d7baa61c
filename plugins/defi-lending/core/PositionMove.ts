import { bigOrZero, type Entity, type IndexContext } from '../../../framework';
import { closedAt, openedAt } from '../../../framework/defi';
import { accrued, interestAt, PRECISION } from '../Interest';
import type { LendingAccount, LendingAction, LendingRates, LendingShareMove } from './LendingAdapter';
import type { LendPositionRow } from '../tables.generated';

const sign = (was: boolean, now: boolean): bigint => (was === now ? 0n : now ? 1n : -1n);

/**
 * A new position row, closed at this block until the action applied to it right after opens it: one that
 * never holds a raw unit (dust yTokens seized in a liquidation, say) stays closed, with its close block.
 */
export function emptyPosition(
  pool: Entity,
  position: string,
  owner: string,
  ctx: IndexContext,
): Omit<LendPositionRow, 'pool' | 'contract' | 'pool_id' | 'entity'> {
  return {
    position,
    owner,
    stake_id: null,
    debt_token: String(pool.debt_token),
    collateral_token: String(pool.collateral_token),
    balance: 0n,
    debt: 0n,
    deposited: 0n,
    withdrawn: 0n,
    borrowed: 0n,
    repaid: 0n,
    liquidated: 0n,
    sent: 0n,
    received: 0n,
    interest_earned: null,
    interest_paid: null,
    interest_pending: null,
    shares: null,
    borrow_scaled: null,
    borrow_index: null,
    is_collateral: null,
    is_closed: true,
    open_height: ctx.block.level,
    open_time: new Date(ctx.block.time),
    close_height: ctx.block.level,
    close_time: new Date(ctx.block.time),
    update_height: ctx.block.level,
  };
}

/** An action on the position, or (no kind) only the contract's new figures for it. */
export type PositionChange =
  LendingAction | { readonly kind?: undefined; readonly account: LendingAccount; readonly moved?: LendingShareMove };

/**
 * The patch one action makes to a position, the interest the call added to its debt, and the change
 * of the market's suppliers and borrowers (+1, −1, 0). Open while there is supply or debt. The debt is
 * the contract's (its scaled borrow) when the adapter reports it, else the recorded one moved by the
 * action, never below 0 (a repay of accrued interest on a debt we recorded without it).
 */
export function applyToPosition(
  p: Entity,
  a: PositionChange,
  rates: LendingRates | undefined,
  ctx: IndexContext,
): { patch: Record<string, unknown>; interest: bigint | null; deposits: bigint; borrows: bigint } {
  const was = { balance: bigOrZero(p.balance), debt: bigOrZero(p.debt) };
  const now = { ...was };
  const patch: Record<string, unknown> = { update_height: ctx.block.level };
  const interest = interestAdded(p, a, rates);
  const add = (col: string, volume: bigint) => (patch[col] = bigOrZero(p[col]) + volume);
  switch (a.kind) {
    case 'deposit':
      now.balance += a.volume;
      add('deposited', a.volume);
      break;
    case 'withdraw':
      now.balance = now.balance > a.volume ? now.balance - a.volume : 0n;
      add('withdrawn', a.volume);
      break;
    case 'borrow':
      now.debt += a.volume;
      add('borrowed', a.volume);
      break;
    case 'repay':
    case 'liquidate':
      now.debt = now.debt > a.volume ? now.debt - a.volume : 0n;
      add(a.kind === 'repay' ? 'repaid' : 'liquidated', a.volume);
      break;
  }
  // Supply moved without a deposit or withdrawal: transfers, seized collateral (alone or beside a liquidation).
  const { sent = 0n, received = 0n } = a.moved ?? {};
  if (sent > 0n) add('sent', sent);
  if (received > 0n) add('received', received);
  now.balance = now.balance + received > sent ? now.balance + received - sent : 0n;
  const borrow = a.account?.borrow;
  if (borrow) Object.assign(patch, { borrow_scaled: borrow.scaled, borrow_index: borrow.index });
  if (a.account?.shares !== undefined) patch.shares = a.account.shares;
  if (borrow) now.debt = borrow.scaled / PRECISION;
  if (interest !== null) patch.interest_paid = bigOrZero(p.interest_paid) + interest;
  Object.assign(patch, { balance: now.balance, debt: now.debt });
  if (rates) Object.assign(patch, interestAt({ ...p, ...patch }, rates));
  // Open/closed from the amounts, not the stored flag (its read-back form depends on the store).
  const wasOpen = was.balance > 0n || was.debt > 0n;
  const open = now.balance > 0n || now.debt > 0n;
  if (open && !wasOpen) Object.assign(patch, openedAt(ctx));
  if (!open && wasOpen) Object.assign(patch, closedAt(ctx));
  return {
    patch,
    interest,
    deposits: sign(was.balance > 0n, now.balance > 0n),
    borrows: sign(was.debt > 0n, now.debt > 0n),
  };
}

/**
 * Interest the call brought into the owner's debt: what the recorded borrow accrued up to the index the
 * contract brought it to. 0 when the call left the borrow alone on a market with rates; null when
 * the market keeps no figures or the position's earlier borrow was not recorded.
 */
function interestAdded(p: Entity, a: PositionChange, rates: LendingRates | undefined): bigint | null {
  const borrow = a.account?.borrow;
  if (!borrow) return rates ? 0n : null;
  if (p.borrow_scaled === null || p.borrow_scaled === undefined) return bigOrZero(p.debt) === 0n ? 0n : null;
  return accrued(bigOrZero(p.borrow_scaled), bigOrZero(p.borrow_index), borrow.index) / PRECISION;
}
