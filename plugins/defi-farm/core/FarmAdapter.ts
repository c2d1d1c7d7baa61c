import type { IndexContext } from '../../../framework';
// Token references and the origin of an action mean the same for farms as for DEX pools: shared, not copied.
import type {
  DefiAdapter,
  DefiOrigin as DexOrigin,
  DefiPoolDecl,
  DefiPoolKey,
  DefiTokenRef as DexTokenRef,
} from '../../../framework/defi';

/**
 * The contract between a farm protocol adapter and the plugin's core. An adapter only decodes: it
 * recognizes its farms' calls and reports what happened in the farm's own terms (raw amounts that
 * moved, the farm's totals after, read from its storage). The core turns the reports into every
 * record (farm, event, position), so protocols cannot disagree on what a field means.
 */

export type FarmTokenRef = DexTokenRef;
export type FarmOrigin = DexOrigin;

/** The identity of a farm: `KT1…_poolId` in the API (poolId 0 for single-farm contracts). */
export type FarmKey = DefiPoolKey;

/** What does not change about a farm; reported when the adapter first sees it. */
export interface FarmDecl extends DefiPoolDecl {
  readonly stake: FarmTokenRef;
  readonly reward: FarmTokenRef;
}

/** A farm's totals after an operation, read from its storage (never summed up by the core). */
export interface FarmSupply {
  /** Stake held (raw stake token units). */
  readonly totalStake: bigint;
  /** Rewards still to pay out (raw); null when the contract does not tell. */
  readonly remainingRewards: bigint | null;
  /** The reward period from the storage, when the contract keeps it in times (end null: open-ended). */
  readonly period?: { readonly start: Date; readonly end: Date | null };
  /**
   * MasterChef-style farms: the farm's accumulated reward per staked unit after the call, in the
   * contract's precision. The farm row keeps it, and every staked position's pending rewards follow
   * it with the contract's formula `(rewardBase + stake·index) / precision` (see OwnerState.rewardBase),
   * or, for savings pools whose stake grows, `shares·index / precision − stake` (see OwnerState.shares):
   * computed where they are read (PendingRewards.ts), not rewritten on every call.
   */
  readonly accrual?: { readonly index: bigint; readonly precision: bigint };
}

interface FarmParties {
  /** The account that called the farm. */
  readonly sender: string;
  /** Who received what the farm paid out (the staker). */
  readonly receiver: string;
}

/** What the storage after the call says about the owner, when the contract keeps it. */
interface OwnerState {
  /** Rewards earned and not paid yet, from the contract's own accounting; undefined when it has none. */
  readonly pending?: bigint;
  /**
   * The owner's stake after the call (raw), when the storage keeps it: the position's balance is then the
   * chain's, and a stake made before the indexed history counts as deposited (see FarmRecorder).
   */
  readonly stakeAfter?: bigint;
  /** The contract's id of the stake lot this action touched (Plenty's InvestMap key). */
  readonly stakeId?: bigint;
  /**
   * MasterChef-style farms: the owner's earned-but-unpaid rewards minus the reward debt (stake × the
   * index at this call), in the contract's precision; with FarmSupply.accrual it gives pending later.
   */
  readonly rewardBase?: bigint;
  /**
   * Savings pools (the stake itself grows): the owner's shares after the call, which the farm's index
   * values in stake tokens (Youves: `stakes[owner]`, the stake discounted to t=0); pending rewards are
   * that value above the stake deposited.
   */
  readonly shares?: bigint;
}

/** Stake in (deposit) or out (withdraw); a withdrawal may pay a fee and rewards along. */
export interface FarmStakeAction extends FarmParties, OwnerState {
  readonly kind: 'deposit' | 'withdraw';
  readonly owner: string;
  /** Stake added or removed from the owner's balance (withdrawals: fee included). */
  readonly volume: bigint;
  /** Part of a withdrawal the farm kept as fee (raw stake token). */
  readonly fee: bigint;
  /** Rewards paid to the owner by the same call. */
  readonly reward: bigint;
}

/** Rewards paid to the owner. */
export interface FarmClaimAction extends FarmParties, OwnerState {
  readonly kind: 'claim';
  readonly owner: string;
  readonly reward: bigint;
}

/** The farm's reward schedule changed (rewards added, rates or fees set): no position moves. */
export interface FarmUpdateAction extends FarmParties {
  readonly kind: 'update';
  /** Rewards added by this call (raw); 0 when none moved. */
  readonly reward: bigint;
}

export type FarmAction = FarmStakeAction | FarmClaimAction | FarmUpdateAction;

/** The core's side, handed to every adapter at registration. All calls write within the block. */
export interface FarmSink {
  /** Declares a farm (first call creates it at this block) with its totals now. */
  farm(ctx: IndexContext, decl: FarmDecl, supply: FarmSupply): Promise<void>;
  /** The farm's totals as last recorded; undefined for unknown farms. */
  supply(ctx: IndexContext, farm: FarmKey): Promise<FarmSupply | undefined>;
  /**
   * The owner's stake as last recorded (0 without a position): for contracts that withdraw it all without saying how
   * much.
   */
  stake(ctx: IndexContext, farm: FarmKey, owner: string): Promise<bigint>;
  /** One action on a declared farm with its totals after it. */
  action(ctx: IndexContext, farm: FarmKey, action: FarmAction, supply: FarmSupply, origin: FarmOrigin): Promise<void>;
}

/**
 * A protocol adapter: one folder under `plugins/defi-farm/adapters/<protocol>/` (this object in
 * `adapter.ts`, found at load; its simulator in `sim/`), nothing else to register (docs/plugins.md).
 */
export type FarmAdapter = DefiAdapter<FarmSink>;
