import type { IndexContext } from '../../../framework';
// Token references and the origin of an action mean the same for lending as for DEX pools: shared, not copied.
import type {
  DefiAdapter,
  DefiOrigin as DexOrigin,
  DefiPoolDecl,
  DefiPoolKey,
  DefiTokenRef as DexTokenRef,
} from '../../../framework/defi';

/**
 * The contract between a lending protocol adapter and the plugin's core. An adapter only decodes: it
 * recognizes its markets' calls and reports what happened in the market's own terms (raw amounts that
 * moved, the market's totals after, read from its storage). The core turns the reports into every
 * record (pool, event, position), so protocols cannot disagree on what a field means.
 */

export type LendingTokenRef = DexTokenRef;
export type LendingOrigin = DexOrigin;

/** The identity of a market: `KT1…_poolId` in the API (Yupana: poolId = the market's token id). */
export type LendingKey = DefiPoolKey;

/** What does not change about a market; reported when the adapter first sees it. */
export interface LendingDecl extends DefiPoolDecl {
  /** The token lent and borrowed. */
  readonly debt: LendingTokenRef;
  /** The token supplied as collateral (the same token on single-token markets). */
  readonly collateral: LendingTokenRef;
}

/** A market's totals after an operation, in raw underlying units. */
export interface LendingSupply {
  /** Underlying supplied (collateral side). */
  readonly totalCollateral: bigint;
  /** Underlying borrowed. */
  readonly totalDebt: bigint;
  /** What turns the contract's scaled figures into underlying, for markets that keep them (Compound-style, Yupana). */
  readonly rates?: LendingRates;
}

/**
 * A Compound-style market's state in the contract's own 10^18 fixed point (Yupana's `…F` fields):
 * a share is worth `liquidity / shares` underlying, a borrow grows by `borrowIndex` over the index it
 * was last brought to.
 */
export interface LendingRates {
  readonly borrowIndex: bigint;
  /** What suppliers own (Yupana: totalLiquidF + totalBorrowsF − totalReservesF). */
  readonly liquidity: bigint;
  /** Shares issued (Yupana: totalSupplyF). */
  readonly shares: bigint;
}

/** Supply that left (`sent`) or reached (`received`) an owner without a deposit or withdrawal, in raw underlying. */
export interface LendingShareMove {
  readonly sent?: bigint;
  readonly received?: bigint;
}

/** An owner's figures as the contract keeps them after the call (10^18 fixed point); only those the call changed. */
export interface LendingAccount {
  readonly shares?: bigint;
  readonly borrow?: { readonly scaled: bigint; readonly index: bigint };
}

export type LendingEventType = 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'liquidate';

/** One move of an owner's position: supply in/out, debt taken/returned, or debt repaid by a liquidator. */
export interface LendingAction {
  readonly kind: LendingEventType;
  /** Whose position moved (the borrower on liquidations). */
  readonly owner: string;
  /** The account that called the market (the liquidator on liquidations). */
  readonly sender: string;
  /** Who received what the market paid out; the owner when nothing was paid out. */
  readonly receiver: string;
  /** Underlying moved (raw, absolute); liquidations: the debt repaid. */
  readonly volume: bigint;
  /** Part of the volume the market kept as fee (raw). */
  readonly fee: bigint;
  /** The owner's scaled figures after the call, for markets that keep them. */
  readonly account?: LendingAccount;
  /**
   * Which of the owner's positions in the market moved, for protocols where an owner has several (a ctez oven id); the
   * position is `{pool}:{owner}:{stakeId}`.
   */
  readonly stakeId?: bigint;
  /** Supply that left or reached the position besides the volume (a vault liquidation's seized collateral). */
  readonly moved?: LendingShareMove;
}

/** An owner's position as recorded: supply and debt in raw underlying. */
export interface LendingHolding {
  readonly balance: bigint;
  readonly debt: bigint;
}

/** The core's side, handed to every adapter at registration. All calls write within the block. */
export interface LendingSink {
  /** Declares a market (first call creates it at this block) with its totals now. */
  market(ctx: IndexContext, decl: LendingDecl, supply: LendingSupply): Promise<void>;
  /** The market's totals as last recorded; undefined for unknown markets. */
  supply(ctx: IndexContext, market: LendingKey): Promise<LendingSupply | undefined>;
  /**
   * The owner's position (the `stakeId` one where owners have several) as last recorded; undefined when there is none.
   */
  position(ctx: IndexContext, market: LendingKey, owner: string, stakeId?: bigint): Promise<LendingHolding | undefined>;
  /** One action on a declared market with its totals after it. */
  action(
    ctx: IndexContext,
    market: LendingKey,
    action: LendingAction,
    supply: LendingSupply,
    origin: LendingOrigin,
  ): Promise<void>;
  /**
   * The contract rewrote the owner's figures in a declared market without an action there: no event.
   * Yupana brings all the owner's borrows to their index; its yToken transfers and liquidations move
   * supply between owners (`moved`: underlying sent away / received, valued at the market's rates).
   */
  account(
    ctx: IndexContext,
    market: LendingKey,
    owner: string,
    account: LendingAccount,
    rates: LendingRates | undefined,
    moved?: LendingShareMove,
  ): Promise<void>;
  /**
   * A declared market's totals and rates changed without an action on it (Yupana: interest accrual, a liquidation's
   * reserve share): no event.
   */
  accrue(ctx: IndexContext, market: LendingKey, supply: LendingSupply): Promise<void>;
  /**
   * The owner started (true) or stopped (false) using a declared market as collateral: no event, only the position's
   * flag.
   */
  collateral(ctx: IndexContext, market: LendingKey, owner: string, used: boolean): Promise<void>;
}

/**
 * A protocol adapter: one folder under `plugins/defi-lending/adapters/<protocol>/` (this object in
 * `adapter.ts`, found at load; its simulator in `sim/`), nothing else to register (docs/plugins.md).
 */
export type LendingAdapter = DefiAdapter<LendingSink>;
