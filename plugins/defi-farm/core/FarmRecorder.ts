import { bigOrZero, type Entity, type EntityStore, type IndexContext } from '../../../framework';
// Token naming (`tez`, `KT1…_id`), token facts and decimal text are the DeFi core's: shared, not copied.
import { bps, decimal, DexTokens, tokenKey, contractCreator, positionKey } from '../../../framework/defi';
import { tables, type FarmPoolRow } from '../tables.generated';
import type { FarmAction, FarmDecl, FarmKey, FarmOrigin, FarmSink, FarmSupply } from './FarmAdapter';
import { pendingAt } from '../PendingRewards';

export const farmAddress = (f: FarmKey): string => `${f.contract}_${f.poolId}`;

/**
 * The core's FarmSink and the only writer of farm_pool, farm_event and farm_position: through
 * ctx.append/ctx.entities only, so rollback needs no code here.
 */
export class FarmRecorder implements FarmSink {
  private readonly tokens = new DexTokens();

  async farm(ctx: IndexContext, decl: FarmDecl, supply: FarmSupply): Promise<void> {
    const farms = this.farms(ctx);
    const address = farmAddress(decl);
    const [stake, reward] = await this.tokens.facts(ctx, [tokenKey(decl.stake), tokenKey(decl.reward)]);
    const declared = {
      entity: decl.entity,
      name: `${decl.entity} ${stake.symbol} farm`,
      stake_token: stake.key,
      reward_token: reward.key,
      ...totals(supply),
      update_height: ctx.block.level,
    };
    const row = await farms.get(address);
    if (row) return farms.update(row, declared);
    farms.insert({
      pool: address,
      contract: decl.contract,
      pool_id: decl.poolId,
      creator: decl.creator ?? (await contractCreator(ctx, decl.contract)),
      num_positions: 0,
      // Unknown unless the storage keeps the period in times (Plenty's is in block levels).
      start_time: null,
      end_time: null,
      first_height: ctx.block.level,
      first_time: new Date(ctx.block.time),
      ...declared,
    });
  }

  async supply(ctx: IndexContext, key: FarmKey): Promise<FarmSupply | undefined> {
    const row = await this.farms(ctx).get(farmAddress(key));
    return row
      ? {
          totalStake: bigOrZero(row.total_stake),
          remainingRewards: row.remaining_rewards === null ? null : bigOrZero(row.remaining_rewards),
        }
      : undefined;
  }

  async stake(ctx: IndexContext, key: FarmKey, owner: string): Promise<bigint> {
    const p = await ctx.entities(tables.farm_position, 'position').get(positionKey(farmAddress(key), owner));
    return p ? bigOrZero(p.stake_balance) : 0n;
  }

  async action(
    ctx: IndexContext,
    key: FarmKey,
    action: FarmAction,
    supply: FarmSupply,
    origin: FarmOrigin,
  ): Promise<void> {
    const farms = this.farms(ctx);
    const farm = await farms.get(farmAddress(key));
    if (!farm)
      throw new Error(`defi-farm: action on undeclared farm ${farmAddress(key)} (adapters declare farms first)`);
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
    const outer = origin.match.group.find((o) => o.opC === origin.step.op.opC && o.opI === 0);
    ctx.append(tables.farm_event, {
      ...identity(farm),
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
      signer: origin.match.signer ?? action.sender,
      sender: action.sender,
      receiver: action.receiver,
      tx_hash: origin.match.hash,
      tx_fee: outer?.fee ?? 0n,
      height: ctx.block.level,
      time: new Date(ctx.block.time),
    });
    farms.update(farm, patch);
  }

  private farms(ctx: IndexContext): EntityStore<FarmPoolRow, 'pool'> {
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
        ...identity(farm),
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
    if (open && !wasOpen)
      Object.assign(patch, {
        is_closed: false,
        open_height: ctx.block.level,
        open_time: time,
        close_height: null,
        close_time: null,
      });
    if (!open && wasOpen) Object.assign(patch, { is_closed: true, close_height: ctx.block.level, close_time: time });
    positions.update(p, patch);
    const opened = open === wasOpen ? 0n : open ? 1n : -1n;
    return { opened, stakeId: Number(patch.stake_id ?? p.stake_id) };
  }
}

const identity = (farm: Entity) => ({
  pool: String(farm.pool),
  contract: String(farm.contract),
  pool_id: Number(farm.pool_id),
  entity: String(farm.entity),
});
const totals = (s: FarmSupply) => ({
  total_stake: s.totalStake,
  remaining_rewards: s.remainingRewards,
  ...(s.period ? { start_time: s.period.start, end_time: s.period.end } : {}),
  // The farm's index, from which the API brings every position's pending rewards (PendingRewards.ts).
  ...(s.accrual ? { reward_index: s.accrual.index, index_precision: s.accrual.precision } : {}),
});
