import { bigOrZero, type Entity, type EntityStore, type IndexContext } from '../../../framework';
// Token naming (`tez`, `KT1…_id`), token facts and decimal text are the DeFi core's: shared, not copied.
import {
  bps,
  closedAt,
  decimal,
  openedAt,
  poolAddress,
  poolIdentity,
  ActionRecorder,
  positionKey,
  type ReportedAction,
  seenAt,
} from '../../../framework/defi';
import { tables, type FarmPoolRow } from '../tables.generated';
import type { FarmAction, FarmDecl, FarmKey, FarmSink, FarmSupply } from './FarmAdapter';
import { pendingAt } from '../PendingRewards';

/**
 * The core's FarmSink and the only writer of farm_pool, farm_event and farm_position: through
 * ctx.append/ctx.entities only, so rollback needs no code here.
 */
export class FarmRecorder extends ActionRecorder<FarmPoolRow, FarmAction, FarmSupply> implements FarmSink {
  static readonly integers = { farm: [1, 2], action: [2, 3] };
  protected readonly area = { plugin: 'defi-farm', noun: 'farm' };

  async farm(ctx: IndexContext, decl: FarmDecl, supply: FarmSupply): Promise<void> {
    const sides = { stake: decl.stake, reward: decl.reward };
    // Start and end unknown unless the storage keeps the period in times (Plenty's is in block levels).
    const opening = { num_positions: 0, start_time: null, end_time: null };
    await this.declare(ctx, this.pools(ctx), decl, sides, totals(supply), opening);
  }

  async supply(ctx: IndexContext, key: FarmKey): Promise<FarmSupply | undefined> {
    const row = await this.pools(ctx).get(poolAddress(key));
    return row
      ? {
          totalStake: bigOrZero(row.total_stake),
          remainingRewards: row.remaining_rewards === null ? null : bigOrZero(row.remaining_rewards),
        }
      : undefined;
  }

  async stake(ctx: IndexContext, key: FarmKey, owner: string): Promise<bigint> {
    const p = await ctx.entities(tables.farm_position, 'position').get(positionKey(poolAddress(key), owner));
    return p ? bigOrZero(p.stake_balance) : 0n;
  }

  protected async record(ctx: IndexContext, reported: ReportedAction<FarmPoolRow, FarmAction, FarmSupply>) {
    const { pools: farms, pool: farm, action, supply, origin } = reported;
    const volume = action.kind === 'deposit' || action.kind === 'withdraw' ? action.volume : 0n;
    const fee = action.kind === 'withdraw' ? action.fee : 0n;
    const patch: Record<string, unknown> = { ...totals(supply), update_height: ctx.block.level };
    // A farm's own update moves no position: stake id 0 (docs/defi-farm.md, stake_id).
    let stakeId = 0;
    if (action.kind !== 'update') {
      const moved = await this.position(ctx, farm, action, supply.accrual);
      patch.num_positions = bigOrZero(farm.num_positions) + moved.opened;
      stakeId = action.stakeId === undefined ? moved.stakeId : Number(action.stakeId);
    }
    ctx.append(tables.farm_event, {
      ...poolIdentity(farm),
      event_type: action.kind,
      stake_token: String(farm.stake_token),
      reward_token: String(farm.reward_token),
      volume,
      reward: action.reward,
      fee,
      fee_bps: decimal(bps(fee, volume), 2),
      stake_id: stakeId,
      stake_supply: supply.totalStake,
      reward_supply: supply.remainingRewards,
      ...seenAt(ctx, origin, action),
    });
    farms.update(farm, patch);
  }

  protected pools(ctx: IndexContext): EntityStore<FarmPoolRow, 'pool'> {
    return ctx.entities(tables.farm_pool, 'pool');
  }

  /**
   * Applies a stake move or claim to the owner's position (creating or reopening it); returns the
   * change of open positions (+1 opened, −1 closed, 0) and the position's stake id after it.
   * Closed: no stake and no known pending rewards.
   */
  private async position(
    ctx: IndexContext,
    farm: Entity,
    action: Exclude<FarmAction, { kind: 'update' }>,
    accrual: FarmSupply['accrual'],
  ): Promise<{ opened: bigint; stakeId: number }> {
    const positions = ctx.entities(tables.farm_position, 'position');
    const key = positionKey(String(farm.pool), action.owner);
    const time = new Date(ctx.block.time);
    const p =
      (await positions.get(key)) ??
      positions.insert({
        ...poolIdentity(farm),
        position: key,
        owner: action.owner,
        stake_token: String(farm.stake_token),
        reward_token: String(farm.reward_token),
        stake_id: null,
        stake_balance: 0n,
        stake_deposited: 0n,
        stake_withdrawn: 0n,
        rewards_claimed: 0n,
        rewards_pending: null,
        reward_base: null,
        reward_shares: null,
        // Closed at this block until the action opens it (one that leaves nothing staked or pending keeps it so).
        is_closed: true,
        open_height: ctx.block.level,
        open_time: time,
        close_height: ctx.block.level,
        close_time: time,
        update_height: ctx.block.level,
      });
    const volume = action.kind === 'claim' ? 0n : action.volume;
    const delta = action.kind === 'deposit' ? volume : action.kind === 'withdraw' ? -volume : 0n;
    // The chain's stake where the storage tells it; what it holds beyond our count was staked before the
    // indexed history (a farm met mid-chain) and counts as deposited, so the counters still add up.
    const balance = action.stakeAfter ?? bigOrZero(p.stake_balance) + delta;
    const unseen = balance - (bigOrZero(p.stake_balance) + delta);
    const counter = (kind: FarmAction['kind'], sign: bigint) =>
      (action.kind === kind ? volume : 0n) + (unseen * sign > 0n ? unseen * sign : 0n);
    const patch: Record<string, unknown> = {
      stake_balance: balance,
      stake_deposited: bigOrZero(p.stake_deposited) + counter('deposit', 1n),
      stake_withdrawn: bigOrZero(p.stake_withdrawn) + counter('withdraw', -1n),
      rewards_claimed: bigOrZero(p.rewards_claimed) + action.reward,
      update_height: ctx.block.level,
    };
    // The contract's id of the stake where it has one, else the row's own id (kept for the position's life).
    if (action.stakeId !== undefined) patch.stake_id = Number(action.stakeId);
    else if (p.stake_id === null) patch.stake_id = Number(p.row_id);
    if (action.rewardBase !== undefined) patch.reward_base = action.rewardBase;
    if (action.shares !== undefined) patch.reward_shares = action.shares;
    // Pending as of this call: the contract's formula at the farm's index where it applies, else what the storage says.
    const pending =
      (accrual && pendingAt({ ...p, ...patch }, accrual)) ??
      action.pending ??
      (p.rewards_pending === null ? null : bigOrZero(p.rewards_pending));
    patch.rewards_pending = pending;
    // Open/closed from the amounts, not the stored flag (its read-back form depends on the store).
    const wasOpen =
      bigOrZero(p.stake_balance) > 0n || (p.rewards_pending !== null && bigOrZero(p.rewards_pending) > 0n);
    const open = balance > 0n || (pending !== null && pending > 0n);
    if (open && !wasOpen) Object.assign(patch, openedAt(ctx));
    if (!open && wasOpen) Object.assign(patch, closedAt(ctx));
    positions.update(p, patch);
    const opened = open === wasOpen ? 0n : open ? 1n : -1n;
    return { opened, stakeId: Number(patch.stake_id ?? p.stake_id) };
  }
}

const totals = (s: FarmSupply) => ({
  total_stake: s.totalStake,
  remaining_rewards: s.remainingRewards,
  ...(s.period ? { start_time: s.period.start, end_time: s.period.end } : {}),
  // The farm's index, from which the API brings every position's pending rewards (PendingRewards.ts).
  ...(s.accrual ? { reward_index: s.accrual.index, index_precision: s.accrual.precision } : {}),
});
