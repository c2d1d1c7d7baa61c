import type { Entity, EntityStore, IndexContext } from '../../../framework';
// Token naming (`tez`, `KT1…_id`) and token facts are the DEX core's: shared, not copied.
import { DexTokens, tokenKey } from '../../defi-dex/core/DexTokens';
import { tables } from '../tables.generated';
import type { LendingAction, LendingDecl, LendingKey, LendingOrigin, LendingSink, LendingSupply } from './LendingAdapter';
import { applyToPosition, emptyPosition } from './PositionMove';

const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);

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
    const declared = { entity: decl.entity, name: `${decl.entity} ${debt.symbol} market`, debt_token: debt.key, collateral_token: collateral.key, ...totals(supply), update_height: ctx.block.level };
    const row = await pools.get(address);
    if (row) return pools.update(row, declared);
    pools.insert({
      pool: address,
      contract: decl.contract,
      pool_id: decl.poolId,
      creator: decl.creator ?? null,
      num_deposits: 0,
      num_borrows: 0,
      first_height: ctx.block.level,
      first_time: new Date(ctx.block.time),
      ...declared,
    });
  }

  async supply(ctx: IndexContext, key: LendingKey): Promise<LendingSupply | undefined> {
    const row = await this.pools(ctx).get(lendAddress(key));
    return row ? { totalCollateral: big(row.total_collateral), totalDebt: big(row.total_debt) } : undefined;
  }

  async action(ctx: IndexContext, key: LendingKey, action: LendingAction, supply: LendingSupply, origin: LendingOrigin): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await pools.get(lendAddress(key));
    if (!pool) throw new Error(`defi-lending: action on undeclared market ${lendAddress(key)} (adapters declare markets first)`);
    const outer = origin.match.group.find((o) => o.opC === origin.step.op.opC && o.opI === 0);
    ctx.append(tables.lend_event, {
      ...identity(pool),
      event_type: action.kind,
      debt_token: String(pool.debt_token),
      collateral_token: String(pool.collateral_token),
      owner: action.owner,
      stake_id: null,
      volume: action.volume,
      debt: supply.totalDebt,
      collateral: supply.totalCollateral,
      fee: action.fee,
      // Interest is folded into the amounts by the contracts we read; not told apart.
      interest: null,
      signer: origin.match.signer ?? action.sender,
      sender: action.sender,
      receiver: action.receiver,
      tx_hash: origin.match.hash,
      tx_fee: outer?.fee ?? 0n,
      height: ctx.block.level,
      time: new Date(ctx.block.time),
    });
    const opened = await this.position(ctx, pool, action);
    pools.update(pool, { ...totals(supply), num_deposits: big(pool.num_deposits) + opened.deposits, num_borrows: big(pool.num_borrows) + opened.borrows, update_height: ctx.block.level });
  }

  async collateral(ctx: IndexContext, key: LendingKey, owner: string, used: boolean): Promise<void> {
    const pool = await this.pools(ctx).get(lendAddress(key));
    if (!pool) throw new Error(`defi-lending: collateral flag on undeclared market ${lendAddress(key)} (adapters declare markets first)`);
    const positions = ctx.entities(tables.lend_position, 'position');
    const p = await this.positionRow(ctx, pool, owner);
    positions.update(p, { is_collateral: used, update_height: ctx.block.level });
  }

  private pools(ctx: IndexContext): EntityStore {
    return ctx.entities(tables.lend_pool, 'pool');
  }

  /** Applies the action to the owner's position (creating it); returns the change of suppliers and borrowers. */
  private async position(ctx: IndexContext, pool: Entity, action: LendingAction): Promise<{ deposits: bigint; borrows: bigint }> {
    const p = await this.positionRow(ctx, pool, action.owner);
    const { patch, deposits, borrows } = applyToPosition(p, action, ctx);
    ctx.entities(tables.lend_position, 'position').update(p, patch);
    return { deposits, borrows };
  }

  /** The owner's position in the market, created closed when the owner has none. */
  private async positionRow(ctx: IndexContext, pool: Entity, owner: string): Promise<Entity> {
    const positions = ctx.entities(tables.lend_position, 'position');
    const key = `${pool.pool}:${owner}`;
    return (await positions.get(key)) ?? positions.insert({ ...identity(pool), ...emptyPosition(pool, key, owner, ctx) });
  }
}

const identity = (pool: Entity) => ({ pool: String(pool.pool), contract: String(pool.contract), pool_id: Number(pool.pool_id), entity: String(pool.entity) });
const totals = (s: LendingSupply) => ({ total_collateral: s.totalCollateral, total_debt: s.totalDebt });
