import { bigOrZero, type Entity, type EntityStore, type IndexContext } from '../../../framework';
// Token naming (`tez`, `KT1…_id`) and token facts are the DeFi core's: shared, not copied.
import { DexTokens, tokenKey, contractCreator, positionKey } from '../../../framework/defi';
import { tables, type LendPoolRow } from '../tables.generated';
import { ratesColumns } from '../Interest';
import type {
  LendingAccount,
  LendingAction,
  LendingDecl,
  LendingHolding,
  LendingKey,
  LendingOrigin,
  LendingRates,
  LendingShareMove,
  LendingSink,
  LendingSupply,
} from './LendingAdapter';
import { applyToPosition, emptyPosition, type PositionChange } from './PositionMove';

export const lendAddress = (m: LendingKey): string => `${m.contract}_${m.poolId}`;

/**
 * The core's LendingSink and the only writer of lend_pool, lend_event and lend_position: through
 * ctx.append/ctx.entities only, so rollback needs no code here.
 */
export class LendingRecorder implements LendingSink {
  private readonly tokens = new DexTokens();

  async market(ctx: IndexContext, decl: LendingDecl, supply: LendingSupply): Promise<void> {
    const pools = this.pools(ctx);
    const address = lendAddress(decl);
    const [debt, collateral] = await this.tokens.facts(ctx, [tokenKey(decl.debt), tokenKey(decl.collateral)]);
    const declared = {
      entity: decl.entity,
      name: `${decl.entity} ${debt.symbol} market`,
      debt_token: debt.key,
      collateral_token: collateral.key,
      ...totals(supply),
      update_height: ctx.block.level,
    };
    const row = await pools.get(address);
    if (row) return pools.update(row, declared);
    pools.insert({
      pool: address,
      contract: decl.contract,
      pool_id: decl.poolId,
      creator: decl.creator ?? (await contractCreator(ctx, decl.contract)),
      num_deposits: 0,
      num_borrows: 0,
      first_height: ctx.block.level,
      first_time: new Date(ctx.block.time),
      ...declared,
    });
  }

  async supply(ctx: IndexContext, key: LendingKey): Promise<LendingSupply | undefined> {
    const row = await this.pools(ctx).get(lendAddress(key));
    return row ? { totalCollateral: bigOrZero(row.total_collateral), totalDebt: bigOrZero(row.total_debt) } : undefined;
  }

  async position(
    ctx: IndexContext,
    key: LendingKey,
    owner: string,
    stakeId?: bigint,
  ): Promise<LendingHolding | undefined> {
    const row = await ctx.entities(tables.lend_position, 'position').get(stakeKey(lendAddress(key), owner, stakeId));
    return row ? { balance: bigOrZero(row.balance), debt: bigOrZero(row.debt) } : undefined;
  }

  async action(
    ctx: IndexContext,
    key: LendingKey,
    action: LendingAction,
    supply: LendingSupply,
    origin: LendingOrigin,
  ): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await pools.get(lendAddress(key));
    if (!pool)
      throw new Error(`defi-lending: action on undeclared market ${lendAddress(key)} (adapters declare markets first)`);
    const outer = origin.match.group.find((o) => o.opC === origin.step.op.opC && o.opI === 0);
    const { interest, deposits, borrows, stakeId } = await this.move(
      ctx,
      pool,
      action.owner,
      action,
      supply.rates,
      action.stakeId,
    );
    ctx.append(tables.lend_event, {
      ...identity(pool),
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
      signer: origin.match.signer ?? action.sender,
      sender: action.sender,
      receiver: action.receiver,
      tx_hash: origin.match.hash,
      tx_fee: outer?.fee ?? 0n,
      height: ctx.block.level,
      time: new Date(ctx.block.time),
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
    const pool = await pools.get(lendAddress(key));
    if (!pool)
      throw new Error(
        `defi-lending: account figures on undeclared market ${lendAddress(key)} (adapters declare markets first)`,
      );
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
    const pool = await pools.get(lendAddress(key));
    if (!pool)
      throw new Error(
        `defi-lending: accrual on undeclared market ${lendAddress(key)} (adapters declare markets first)`,
      );
    pools.update(pool, { ...totals(supply), update_height: ctx.block.level });
  }

  async collateral(ctx: IndexContext, key: LendingKey, owner: string, used: boolean): Promise<void> {
    const pool = await this.pools(ctx).get(lendAddress(key));
    if (!pool)
      throw new Error(
        `defi-lending: collateral flag on undeclared market ${lendAddress(key)} (adapters declare markets first)`,
      );
    const positions = ctx.entities(tables.lend_position, 'position');
    const p = await this.positionRow(ctx, pool, owner);
    positions.update(p, { is_collateral: used, update_height: ctx.block.level });
  }

  private pools(ctx: IndexContext): EntityStore<LendPoolRow, 'pool'> {
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
      positions.insert({ ...identity(pool), ...emptyPosition(pool, key, owner, ctx), stake_id: stake });
    if (row.stake_id === null) positions.update(row, { stake_id: Number(row.row_id) });
    return row;
  }
}

/** A position's key: the owner's in the market, or one of its stakes (`stakeId`). */
const stakeKey = (pool: string, owner: string, stakeId?: bigint) =>
  stakeId === undefined ? positionKey(pool, owner) : `${positionKey(pool, owner)}:${stakeId}`;
const identity = (pool: Entity) => ({
  pool: String(pool.pool),
  contract: String(pool.contract),
  pool_id: Number(pool.pool_id),
  entity: String(pool.entity),
});
// The rates too, from which the API brings every position's interest (Interest.ts marketRates).
const totals = (s: LendingSupply) => ({
  total_collateral: s.totalCollateral,
  total_debt: s.totalDebt,
  ...ratesColumns(s.rates),
});
