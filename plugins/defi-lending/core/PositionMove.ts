import type { Entity, IndexContext } from '../../../framework';
import type { LendingAction } from './LendingAdapter';

const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);
const sign = (was: boolean, now: boolean): bigint => (was === now ? 0n : now ? 1n : -1n);

/** A new, closed position row (opened by the action applied to it right after). */
export function emptyPosition(pool: Entity, position: string, owner: string, ctx: IndexContext): Record<string, unknown> {
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
    // Share (yToken) transfers between owners are not indexed yet: nothing sent or received.
    sent: 0n,
    received: 0n,
    interest_earned: null,
    interest_paid: null,
    interest_pending: null,
    is_collateral: null,
    is_closed: true,
    open_height: ctx.block.level,
    open_time: new Date(ctx.block.time),
    close_height: null,
    close_time: null,
    update_height: ctx.block.level,
  };
}

/**
 * The patch one action makes to a position, and the change of the market's suppliers and borrowers
 * (+1, −1, 0). Open while there is supply or debt; debt never goes below 0 (a repay of accrued
 * interest on a debt we recorded without it).
 */
export function applyToPosition(p: Entity, a: LendingAction, ctx: IndexContext): { patch: Record<string, unknown>; deposits: bigint; borrows: bigint } {
  const was = { balance: big(p.balance), debt: big(p.debt) };
  const now = { ...was };
  const patch: Record<string, unknown> = { update_height: ctx.block.level };
  const add = (col: string) => (patch[col] = big(p[col]) + a.volume);
  switch (a.kind) {
    case 'deposit':
      now.balance += a.volume;
      add('deposited');
      break;
    case 'withdraw':
      now.balance = now.balance > a.volume ? now.balance - a.volume : 0n;
      add('withdrawn');
      break;
    case 'borrow':
      now.debt += a.volume;
      add('borrowed');
      break;
    case 'repay':
    case 'liquidate':
      now.debt = now.debt > a.volume ? now.debt - a.volume : 0n;
      add(a.kind === 'repay' ? 'repaid' : 'liquidated');
      break;
  }
  Object.assign(patch, { balance: now.balance, debt: now.debt });
  // Open/closed from the amounts, not the stored flag (its read-back form depends on the store).
  const wasOpen = was.balance > 0n || was.debt > 0n;
  const open = now.balance > 0n || now.debt > 0n;
  const time = new Date(ctx.block.time);
  if (open && !wasOpen) Object.assign(patch, { is_closed: false, open_height: ctx.block.level, open_time: time, close_height: null, close_time: null });
  if (!open && wasOpen) Object.assign(patch, { is_closed: true, close_height: ctx.block.level, close_time: time });
  return { patch, deposits: sign(was.balance > 0n, now.balance > 0n), borrows: sign(was.debt > 0n, now.debt > 0n) };
}
