// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** DEX pools (one row per contract and pair id) with their current reserves and counters */
export type DexPoolRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** pool address `KT1…_pairId` */
  pool: string;
  /** pool contract */
  contract: string;
  /** pool id inside the contract (0 for single-pool contracts) */
  pair_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** pool name */
  name: string;
  /** pair name (token symbols A/B…) */
  pair: string;
  /** account that signed the pool creation; null when the creation was not indexed */
  creator?: string | null;
  /** tokens in the pool (2 to 4) */
  num_tokens: bigint | number;
  /** token A: `tez` or `KT1…_tokenId` */
  token_a: string;
  /** token B: `tez` or `KT1…_tokenId` */
  token_b: string;
  /** token C: `tez` or `KT1…_tokenId`; null when the pool has fewer tokens */
  token_c?: string | null;
  /** token D: `tez` or `KT1…_tokenId`; null when the pool has fewer tokens */
  token_d?: string | null;
  /** LP share token `KT1…_tokenId`; null when shares are internal to the pool */
  token_lp?: string | null;
  /** reserve after the last change (raw) (token A) */
  supply_a: bigint | number;
  /** reserve after the last change (raw) (token B) */
  supply_b: bigint | number;
  /** reserve after the last change (raw) (token C; null when the pool has fewer tokens) */
  supply_c?: bigint | number | null;
  /** reserve after the last change (raw) (token D; null when the pool has fewer tokens) */
  supply_d?: bigint | number | null;
  /** LP shares outstanding (raw) */
  supply_lp: bigint | number;
  /** total trading fee in basis points */
  fees_bps: string | number;
  /** height of the pool creation (or of the first indexed operation when the creation was not indexed) */
  first_height: bigint | number;
  /** time of first_height */
  first_time: Date | number | string;
  /** height of the last reserve change */
  last_change_height: bigint | number;
  /** time of last_change_height */
  last_change_time: Date | number | string;
  /** time of the last trade; null before the first */
  last_trade_time?: Date | number | string | null;
  /** trades so far */
  num_trades: bigint | number;
  /** owners holding shares now */
  num_lps: bigint | number;
  /** owners that ever held shares */
  num_total_lps: bigint | number;
  /** accounts that ever traded or provided liquidity */
  num_total_users: bigint | number;
  /** height of the latest change of this row */
  update_height: bigint | number;
  /**
   * with marginal_b: raw amounts of A and B whose ratio is the pool's marginal price (B per A) where that is not
   * supply_b / supply_a (concentrated liquidity: 2^160 and sqrt_price²); null: the supplies' ratio
   */
  marginal_a?: bigint | number | null;
  /** see marginal_a */
  marginal_b?: bigint | number | null;
};

/** A dex_pool row as read (CatalogRows): values as explorer objects show them. */
export type DexPoolRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pair_id: number | bigint;
  entity: string;
  name: string;
  pair: string;
  creator: string | null;
  num_tokens: number | bigint;
  token_a: string;
  token_b: string;
  token_c: string | null;
  token_d: string | null;
  token_lp: string | null;
  supply_a: string;
  supply_b: string;
  supply_c: string | null;
  supply_d: string | null;
  supply_lp: string;
  fees_bps: string;
  first_height: number | bigint;
  first_time: string;
  last_change_height: number | bigint;
  last_change_time: string;
  last_trade_time: string | null;
  num_trades: number | bigint;
  num_lps: number | bigint;
  num_total_lps: number | bigint;
  num_total_users: number | bigint;
  update_height: number | bigint;
  marginal_a: string | null;
  marginal_b: string | null;
};

/** DEX pool events (trade, deposit, withdraw, claim, update, create, transfer) with the reserves after each */
export type DexEventRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** pool address `KT1…_pairId` */
  pool: string;
  /** pool contract */
  contract: string;
  /** pool id inside the contract (0 for single-pool contracts) */
  pair_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** what happened */
  event_type: 'trade' | 'deposit' | 'withdraw' | 'claim' | 'update' | 'create' | 'transfer';
  /** amount moved (raw, absolute) (token A) */
  volume_a: bigint | number;
  /** amount moved (raw, absolute) (token B) */
  volume_b: bigint | number;
  /** amount moved (raw, absolute) (token C; null when the pool has fewer tokens) */
  volume_c?: bigint | number | null;
  /** amount moved (raw, absolute) (token D; null when the pool has fewer tokens) */
  volume_d?: bigint | number | null;
  /** LP shares minted, burned or moved (raw) */
  volume_lp: bigint | number;
  /** reserve after the event (raw) (token A) */
  supply_a: bigint | number;
  /** reserve after the event (raw) (token B) */
  supply_b: bigint | number;
  /** reserve after the event (raw) (token C; null when the pool has fewer tokens) */
  supply_c?: bigint | number | null;
  /** reserve after the event (raw) (token D; null when the pool has fewer tokens) */
  supply_d?: bigint | number | null;
  /** LP shares outstanding after the event (raw) */
  supply_lp: bigint | number;
  /** USD value of the volumes at the event; null when no price path exists */
  value_usd?: string | number | null;
  /** account that signed the operation group */
  signer: string;
  /** account that called the pool (the user when a router was used) */
  sender: string;
  /** account that received the output */
  receiver: string;
  /** router contract the call came through; null for direct calls */
  router?: string | null;
  /** operation group hash */
  tx_hash: string;
  /** fee paid by the group's signer for the operation (tez) */
  tx_fee: bigint;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
};

/** A dex_event row as read (CatalogRows): values as explorer objects show them. */
export type DexEventRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pair_id: number | bigint;
  entity: string;
  event_type: 'trade' | 'deposit' | 'withdraw' | 'claim' | 'update' | 'create' | 'transfer';
  volume_a: string;
  volume_b: string;
  volume_c: string | null;
  volume_d: string | null;
  volume_lp: string;
  supply_a: string;
  supply_b: string;
  supply_c: string | null;
  supply_d: string | null;
  supply_lp: string;
  value_usd: string | null;
  signer: string;
  sender: string;
  receiver: string;
  router: string | null;
  tx_hash: string;
  tx_fee: number;
  height: number | bigint;
  time: string;
};

/** DEX trades, one per pool swap (a multi-hop route gives one trade per pool) */
export type DexTradeRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** pool address `KT1…_pairId` */
  pool: string;
  /** pool contract */
  contract: string;
  /** pool id inside the contract (0 for single-pool contracts) */
  pair_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** serial number of the trade in its pool (1, 2, …) */
  counter: bigint | number;
  /** buy: quote in, base out; sell: base in, quote out */
  side: 'buy' | 'sell';
  /** index of the pool token traded as base: the lower of the two (0 = A) */
  base_token: bigint | number;
  /** index of the pool token traded as quote: the higher of the two (1 = B) */
  quote_token: bigint | number;
  /** base token amount traded (raw) */
  base_volume: bigint | number;
  /** quote token amount traded (raw) */
  quote_volume: bigint | number;
  /** LP fee (raw, in the fee token); null when the protocol takes none */
  lp_fee?: bigint | number | null;
  /** LP fee rate in basis points */
  lp_fee_bps?: string | number | null;
  /** index of the pool token the lp fee is paid in (0 = A) */
  lp_fee_token?: bigint | number | null;
  /** Dev fee (raw, in the fee token); null when the protocol takes none */
  dev_fee?: bigint | number | null;
  /** Dev fee rate in basis points */
  dev_fee_bps?: string | number | null;
  /** index of the pool token the dev fee is paid in (0 = A) */
  dev_fee_token?: bigint | number | null;
  /** Referral fee (raw, in the fee token); null when the protocol takes none */
  referral_fee?: bigint | number | null;
  /** Referral fee rate in basis points */
  referral_fee_bps?: string | number | null;
  /** index of the pool token the referral fee is paid in (0 = A) */
  referral_fee_token?: bigint | number | null;
  /** Incentive fee (raw, in the fee token); null when the protocol takes none */
  incentive_fee?: bigint | number | null;
  /** Incentive fee rate in basis points */
  incentive_fee_bps?: string | number | null;
  /** index of the pool token the incentive fee is paid in (0 = A) */
  incentive_fee_token?: bigint | number | null;
  /** Burn (raw, in the fee token); null when the protocol takes none */
  burn?: bigint | number | null;
  /** Burn rate in basis points */
  burn_bps?: string | number | null;
  /** index of the pool token the burn is paid in (0 = A) */
  burn_token?: bigint | number | null;
  /** quote per base as paid, fees included */
  price_net: string | number;
  /** quote per base before fees */
  price_gross: string | number;
  /**
   * marginal price before the trade, B per A, decimals applied: the reserves' ratio, or the pool's own marginal price
   * (marginal_a/b of dex_pool: concentrated liquidity)
   */
  price_before: string | number;
  /** marginal price after the trade */
  price_after: string | number;
  /** execution price vs. price_before, basis points */
  price_delta_bps: string | number;
  /** price_after vs. price_before, basis points */
  price_impact_bps: string | number;
  /** the same signer traded this pool both ways in the same block */
  is_wash_trade: boolean;
  /** base token price in USD at the trade; null without a price path */
  price_usd?: string | number | null;
  /** USD value of the fees */
  fees_usd?: string | number | null;
  /** USD value of the trade */
  volume_usd?: string | number | null;
  /** account that signed the operation group */
  signer: string;
  /** account that called the pool (the user when a router was used) */
  sender: string;
  /** account that received the output */
  receiver: string;
  /** router contract the call came through; null for direct calls */
  router?: string | null;
  /** operation group hash */
  tx_hash: string;
  /** fee paid by the group's signer for the operation (tez) */
  tx_fee: bigint;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
};

/** A dex_trade row as read (CatalogRows): values as explorer objects show them. */
export type DexTradeRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pair_id: number | bigint;
  entity: string;
  counter: number | bigint;
  side: 'buy' | 'sell';
  base_token: number | bigint;
  quote_token: number | bigint;
  base_volume: string;
  quote_volume: string;
  lp_fee: string | null;
  lp_fee_bps: string | null;
  lp_fee_token: number | bigint | null;
  dev_fee: string | null;
  dev_fee_bps: string | null;
  dev_fee_token: number | bigint | null;
  referral_fee: string | null;
  referral_fee_bps: string | null;
  referral_fee_token: number | bigint | null;
  incentive_fee: string | null;
  incentive_fee_bps: string | null;
  incentive_fee_token: number | bigint | null;
  burn: string | null;
  burn_bps: string | null;
  burn_token: number | bigint | null;
  price_net: string;
  price_gross: string;
  price_before: string;
  price_after: string;
  price_delta_bps: string;
  price_impact_bps: string;
  is_wash_trade: boolean;
  price_usd: string | null;
  fees_usd: string | null;
  volume_usd: string | null;
  signer: string;
  sender: string;
  receiver: string;
  router: string | null;
  tx_hash: string;
  tx_fee: number;
  height: number | bigint;
  time: string;
};

/** liquidity positions, one per pool and owner (closed when all shares are gone) */
export type DexPositionRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** pool address `KT1…_pairId` */
  pool: string;
  /** pool contract */
  contract: string;
  /** pool id inside the contract (0 for single-pool contracts) */
  pair_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** `{pool}:{owner}`, the position's unique key */
  position: string;
  /** share owner */
  owner: string;
  /** LP shares held now (raw) */
  shares: bigint | number;
  /** shares minted to the owner by deposits */
  shares_minted: bigint | number;
  /** shares burned by the owner's withdrawals */
  shares_burned: bigint | number;
  /** shares transferred away */
  shares_sent: bigint | number;
  /** shares received by transfer */
  shares_received: bigint | number;
  /** amount deposited so far (raw) (token A) */
  deposited_a: bigint | number;
  /** amount deposited so far (raw) (token B) */
  deposited_b: bigint | number;
  /** amount deposited so far (raw) (token C; null when the pool has fewer tokens) */
  deposited_c?: bigint | number | null;
  /** amount deposited so far (raw) (token D; null when the pool has fewer tokens) */
  deposited_d?: bigint | number | null;
  /** amount withdrawn so far (raw) (token A) */
  withdrawn_a: bigint | number;
  /** amount withdrawn so far (raw) (token B) */
  withdrawn_b: bigint | number;
  /** amount withdrawn so far (raw) (token C; null when the pool has fewer tokens) */
  withdrawn_c?: bigint | number | null;
  /** amount withdrawn so far (raw) (token D; null when the pool has fewer tokens) */
  withdrawn_d?: bigint | number | null;
  /** cumulative USD value of the deposits at deposit time */
  open_value_usd?: string | number | null;
  /** cumulative USD value of the withdrawals at withdrawal time */
  close_value_usd?: string | number | null;
  /** share-weighted √(reserve product)/share at entry, for fee income */
  growth_entry?: string | number | null;
  /** all shares are gone */
  is_closed: boolean;
  /** height at which the position opened (last reopen) */
  open_height: bigint | number;
  /** time of open_height */
  open_time: Date | number | string;
  /** height at which the shares reached 0; null while open */
  close_height?: bigint | number | null;
  /** time of close_height */
  close_time?: Date | number | string | null;
  /** height of the latest change of this row */
  update_height: bigint | number;
};

/** A dex_position row as read (CatalogRows): values as explorer objects show them. */
export type DexPositionRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pair_id: number | bigint;
  entity: string;
  position: string;
  owner: string;
  shares: string;
  shares_minted: string;
  shares_burned: string;
  shares_sent: string;
  shares_received: string;
  deposited_a: string;
  deposited_b: string;
  deposited_c: string | null;
  deposited_d: string | null;
  withdrawn_a: string;
  withdrawn_b: string;
  withdrawn_c: string | null;
  withdrawn_d: string | null;
  open_value_usd: string | null;
  close_value_usd: string | null;
  growth_entry: string | null;
  is_closed: boolean;
  open_height: number | bigint;
  open_time: string;
  close_height: number | bigint | null;
  close_time: string | null;
  update_height: number | bigint;
};

/** Typed handles of the defi-dex tables: `ctx.append(tables.dex_pool, row)`. */
export const tables = {
  dex_pool: tableHandle<DexPoolRow, DexPoolRead>('dex_pool'),
  dex_event: tableHandle<DexEventRow, DexEventRead>('dex_event'),
  dex_trade: tableHandle<DexTradeRow, DexTradeRead>('dex_trade'),
  dex_position: tableHandle<DexPositionRow, DexPositionRead>('dex_position'),
} as const;
