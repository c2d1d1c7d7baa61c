import { bigOrZero, type Entity, type EntityStore, type IndexContext } from '../../../framework';
// Token naming (`tez`, `KT1…_id`) and token facts are the DeFi core's: shared, not copied.
import {
  ActionRecorder,
  poolAddress,
  poolIdentity,
  positionKey,
  type ReportedAction,
  seenAt,
} from '../../../framework/defi';
import { tables, type LendPoolRow } from '../tables.generated';
import { ratesColumns } from '../Interest';
import type {
  LendingAccount,
  LendingAction,
  LendingDecl,
  LendingHolding,
  LendingKey,
  LendingRates,
  LendingShareMove,
  LendingSink,
  LendingSupply,
} from './LendingAdapter';
import { applyToPosition, emptyPosition, type PositionChange } from './PositionMove';

/**
 * The core's LendingSink and the only writer of lend_pool, lend_event and lend_position: through
 * ctx.append/ctx.entities only, so rollback needs no code here.
 */
export class LendingRecorder extends ActionRecorder<LendPoolRow, LendingAction, LendingSupply> implements LendingSink {
  static readonly integers = { market: [1, 2], action: [2, 3], account: [3, 4, 5], accrue: [2] };
  protected readonly area = { plugin: 'defi-lending', noun: 'market' };

  async market(ctx: IndexContext, decl: LendingDecl, supply: LendingSupply): Promise<void> {
    const sides = { debt: decl.debt, collateral: decl.collateral };
    await this.declare(ctx, this.pools(ctx), decl, sides, totals(supply), { num_deposits: 0, num_borrows: 0 });
  }

  async supply(ctx: IndexContext, key: LendingKey): Promise<LendingSupply | undefined> {
    const row = await this.pools(ctx).get(poolAddress(key));
    return row ? { totalCollateral: bigOrZero(row.total_collateral), totalDebt: bigOrZero(row.total_debt) } : undefined;
  }

  async position(
    ctx: IndexContext,
    key: LendingKey,
    owner: string,
    stakeId?: bigint,
  ): Promise<LendingHolding | undefined> {
    const row = await ctx.entities(tables.lend_position, 'position').get(stakeKey(poolAddress(key), owner, stakeId));
    return row ? { balance: bigOrZero(row.balance), debt: bigOrZero(row.debt) } : undefined;
  }

  protected async record(ctx: IndexContext, reported: ReportedAction<LendPoolRow, LendingAction, LendingSupply>) {
    const { pools, pool, action, supply, origin } = reported;
    const { interest, deposits, borrows, stakeId } = await this.move(
      ctx,
      pool,
      action.owner,
      action,
      supply.rates,
      action.stakeId,
    );
    ctx.append(tables.lend_event, {
      ...poolIdentity(pool),
      event_type: action.kind,
      debt_token: String(pool.debt_token),
      collateral_token: String(pool.collateral_token),
      owner: action.owner,
      stake_id: stakeId,
      volume: action.volume,
      debt: supply.totalDebt,
      collateral: supply.totalCollateral,
      fee: action.fee,
      interest,
      ...seenAt(ctx, origin, action),
    });
    pools.update(pool, {
      ...totals(supply),
      num_deposits: bigOrZero(pool.num_deposits) + deposits,
      num_borrows: bigOrZero(pool.num_borrows) + borrows,
      update_height: ctx.block.level,
    });
  }

  async account(
    ctx: IndexContext,
    key: LendingKey,
    owner: string,
    account: LendingAccount,
    rates: LendingRates | undefined,
    moved?: LendingShareMove,
  ): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await this.known(pools, poolAddress(key), 'account figures');
    const { deposits, borrows } = await this.move(ctx, pool, owner, { account, moved }, rates);
    if (deposits !== 0n || borrows !== 0n)
      pools.update(pool, {
        num_deposits: bigOrZero(pool.num_deposits) + deposits,
        num_borrows: bigOrZero(pool.num_borrows) + borrows,
        update_height: ctx.block.level,
      });
  }

  async accrue(ctx: IndexContext, key: LendingKey, supply: LendingSupply): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await this.known(pools, poolAddress(key), 'accrual');
    pools.update(pool, { ...totals(supply), update_height: ctx.block.level });
  }

  async collateral(ctx: IndexContext, key: LendingKey, owner: string, used: boolean): Promise<void> {
    const pool = await this.known(this.pools(ctx), poolAddress(key), 'collateral flag');
    const positions = ctx.entities(tables.lend_position, 'position');
    const p = await this.positionRow(ctx, pool, owner);
    positions.update(p, { is_collateral: used, update_height: ctx.block.level });
  }

  protected pools(ctx: IndexContext): EntityStore<LendPoolRow, 'pool'> {
    return ctx.entities(tables.lend_pool, 'pool');
  }

  /** Applies a change to the owner's position (creating it); answers the position's stake id too. */
  private async move(
    ctx: IndexContext,
    pool: Entity,
    owner: string,
    change: PositionChange,
    rates: LendingRates | undefined,
    stakeId?: bigint,
  ): Promise<{ interest: bigint | null; deposits: bigint; borrows: bigint; stakeId: number }> {
    const position = await this.positionRow(ctx, pool, owner, stakeId);
    const { patch, ...out } = applyToPosition(position, change, rates, ctx);
    ctx.entities(tables.lend_position, 'position').update(position, patch);
    return { ...out, stakeId: Number(position.stake_id) };
  }

  /**
   * The owner's position in the market (the `stakeId` one), created closed when the owner has none.
   * Its stake id is the contract's (a ctez oven id), else the row's own id (stable for the position's
   * life; also given to rows indexed before stake ids were set).
   */
  private async positionRow(ctx: IndexContext, pool: Entity, owner: string, stakeId?: bigint): Promise<Entity> {
    const positions = ctx.entities(tables.lend_position, 'position');
    const key = stakeKey(String(pool.pool), owner, stakeId);
    const stake = stakeId === undefined ? null : Number(stakeId);
    const row =
      (await positions.get(key)) ??
      positions.insert({ ...poolIdentity(pool), ...emptyPosition(pool, key, owner, ctx), stake_id: stake });
    if (row.stake_id === null) positions.update(row, { stake_id: Number(row.row_id) });
    return row;
  }
}

/** A position's key: the owner's in the market, or one of its stakes (`stakeId`). */
const stakeKey = (pool: string, owner: string, stakeId?: bigint) =>
  stakeId === undefined ? positionKey(pool, owner) : `${positionKey(pool, owner)}:${stakeId}`;
// The rates too, from which the API brings every position's interest (Interest.ts marketRates).
const totals = (s: LendingSupply) => ({
  total_collateral: s.totalCollateral,
  total_debt: s.totalDebt,
  ...ratesColumns(s.rates),
});
