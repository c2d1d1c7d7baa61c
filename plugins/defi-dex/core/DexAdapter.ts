import type { ContractTypes, IndexContext } from '../../../framework';
import type { DefiAdapter, DefiOrigin as DexOrigin, DefiTokenRef as DexTokenRef } from '../../../framework/defi';

/**
 * The contract between a DEX protocol adapter and the plugin's core. An adapter only decodes: it
 * recognizes its contracts' operations (group patterns, claims, watches) and reports what happened to
 * a pool in the pool's own terms (token indexes, raw amounts, reserves after). The core turns those
 * reports into every record (pool, event, trade, position, ticker, candle, USD values), so the
 * protocols cannot disagree on what a field means.
 */

// Token references and action origins mean the same in every DeFi area: the DeFi core's.
export type { DefiTokenRef as DexTokenRef, DefiOrigin as DexOrigin } from '../../../framework/defi';

/** The identity of a pool: `KT1…_pairId` in the API (pairId 0 for single-pool contracts). */
export interface DexPoolKey {
  readonly contract: string;
  readonly pairId: number;
}

/** What does not change (or rarely changes) about a pool; reported when the adapter first sees it. */
export interface DexPoolDecl extends DexPoolKey {
  /** Protocol family label (`sirius`, `quipu_v1`, `quipu_v2`, `quipu_stable`, `quipu_v3`, `plenty_v1`, …). */
  readonly entity: string;
  /** 2 to 4 tokens in the contract's order: a, b, c, d. */
  readonly tokens: readonly DexTokenRef[];
  /**
   * The LP share token when it is a ledger of its own (FA1.2/FA2 contract or the pool itself); null when shares are
   * internal only.
   */
  readonly lp: DexTokenRef | null;
  /** Total trading fee in basis points as a decimal string (`"30"`, `"34.48"`). */
  readonly feesBps: string;
  /** Signer of the pool creation when the adapter saw it (origination or factory call). */
  readonly creator?: string;
}

/** A pool's reserves after an operation, read from the contract storage after it (never recomputed). */
export interface DexSupply {
  /** Raw reserve per token, in pool order (same length as `DexPoolDecl.tokens`). */
  readonly reserves: readonly bigint[];
  /** LP shares outstanding (raw). */
  readonly lpSupply: bigint;
  /** Set when the fee changed with this operation. */
  readonly feesBps?: string;
  /**
   * Raw amounts of A and B whose ratio is the pool's marginal price (B per A) when that is not the
   * reserves' ratio: a concentrated-liquidity pool's price is `sqrt_price²` over its fixed-point one.
   */
  readonly marginal?: readonly [bigint, bigint];
}

/** One fee taken by a trade, in one of the pool's tokens. */
export interface DexFee {
  readonly amount: bigint;
  /** Rate in basis points as a decimal string. */
  readonly bps: string;
  /** Index of the token the fee is paid in (into `DexPoolDecl.tokens`). */
  readonly token: number;
}

/** Who took part in an action; the core adds signer, tx hash, fee and block from the match. */
export interface DexParties {
  /** The account that called the pool (or the router's caller when a router is involved: the user). */
  readonly sender: string;
  /** Who received the output (tokens, tez or shares). */
  readonly receiver: string;
  /** Router contract the call came through (3Route, Plenty router, Spicy router), else undefined. */
  readonly router?: string;
}

export interface DexTradeAction extends DexParties {
  readonly kind: 'trade';
  readonly tokenIn: number;
  readonly tokenOut: number;
  /** What the trader paid in, fees included. */
  readonly amountIn: bigint;
  /** What the receiver got. */
  readonly amountOut: bigint;
  readonly fees: {
    readonly lp?: DexFee;
    readonly dev?: DexFee;
    readonly referral?: DexFee;
    readonly incentive?: DexFee;
    readonly burn?: DexFee;
  };
}

export interface DexLiquidityAction extends DexParties {
  readonly kind: 'deposit' | 'withdraw';
  /** Owner of the shares minted or burned. */
  readonly owner: string;
  /** Per token (pool order), what went in (deposit) or out (withdraw). */
  readonly amounts: readonly bigint[];
  /** LP shares minted (deposit) or burned (withdraw). */
  readonly shares: bigint;
}

/** Reserves changed without a trade or liquidity move: subsidy, baker rewards, fee or parameter changes, skim. */
export interface DexUpdateAction extends DexParties {
  readonly kind: 'update' | 'claim';
  /** Per token, the amount added (positive) or taken out (negative) by this action; zeros allowed. */
  readonly amounts: readonly bigint[];
}

/** LP shares moved between owners outside liquidity actions (an LP token transfer). */
export interface DexShareTransfer {
  readonly kind: 'transfer';
  readonly from: string;
  readonly to: string;
  readonly shares: bigint;
}

export type DexAction = DexTradeAction | DexLiquidityAction | DexUpdateAction;

/** The core's side, handed to every adapter at registration. All calls write within the block. */
export interface DexSink {
  /**
   * Declares a pool (first call creates it at this block, later calls update the declaration) with its
   * reserves now. Call it on origination/factory creation and, for pools met first in a call (claimed
   * by code, listed in config), before reporting the first action.
   */
  pool(ctx: IndexContext, decl: DexPoolDecl, supply: DexSupply, origin?: DexOrigin): Promise<void>;
  /** Whether the pool is known already (a cheap check before decoding a declaration). */
  knows(ctx: IndexContext, pool: DexPoolKey): Promise<boolean>;
  /** One action on a known pool with its reserves after it. */
  action(ctx: IndexContext, pool: DexPoolKey, action: DexAction, supply: DexSupply, origin: DexOrigin): Promise<void>;
  /** The pool's reserves as last recorded (before the operation being decoded); undefined for unknown pools. */
  supply(ctx: IndexContext, pool: DexPoolKey): Promise<DexSupply | undefined>;
  /** Reserves the protocol changed without an operation (the Liquidity Baking subsidy): no event, no counters. */
  adjust(ctx: IndexContext, pool: DexPoolKey, supply: DexSupply): Promise<void>;
  /** LP shares moved between two owners (positions' shares_sent/received). */
  transfer(ctx: IndexContext, pool: DexPoolKey, transfer: DexShareTransfer, origin: DexOrigin): Promise<void>;
  /**
   * LP shares an origination's storage gives `owner` (a pool's first liquidity: a factory's launch, the
   * Liquidity Baking migration): minted to the owner's position with its part of the reserves as
   * deposited. No event: no operation moved them (an implicit origination has no group).
   */
  firstLiquidity(ctx: IndexContext, pool: DexPoolKey, owner: string, shares: bigint): Promise<void>;
}

/**
 * A protocol adapter: one folder under `plugins/defi-dex/adapters/<protocol>/` (this object exported by
 * `adapter.ts`, found at load; its simulator in `sim/`), nothing else to register (docs/plugins.md).
 */
export interface DexAdapter extends DefiAdapter<DexSink> {
  /** Where its pools' reserves sit in their contracts' storage (`tzidx check defi`); absent: not checked. */
  readonly storageSupply?: DexStorageSupply;
}

/**
 * How a family's pools hold their reserves and LP supply in the contract storage, declared by the family so
 * `dex.reserves` compares the records with the chain's storage after each call (docs/defi-dex.md, Reconciliation).
 */
export interface DexStorageSupply {
  /** The shipped versions' types (their storage type), for contracts whose script was not indexed. */
  readonly types: readonly Pick<ContractTypes, 'storageType'>[];
  /** A pool kept as an entry of a big map (many pools in one contract): the big map's id at `path` of the
   * storage, keyed by the pair id (Michelson type `key`); `read` is then given that entry's raw Micheline value. */
  readonly bigMap?: { readonly path: readonly string[]; readonly key: unknown };
  /**
   * The pool's supply in the decoded storage (or big map entry); undefined when it is not the family's. A part
   * the storage does not hold (Spicy's LP supply, QuipuSwap V3's reserves) is left out: not compared.
   */
  read(storage: unknown, pairId: number): { reserves?: readonly bigint[]; lpSupply?: bigint } | undefined;
}
