// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** lending markets (one row per lending contract and market/token id) with their supply and debt now */
export type LendPoolRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** market address `KT1…_poolId` */
  pool: string;
  /** lending contract */
  contract: string;
  /** market id inside the contract (Yupana's token id) */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** market name */
  name: string;
  /**
   * account that signed the market creation, else the contract's originator; null when neither is known (contracts
   * created at genesis)
   */
  creator?: string | null;
  /** token lent and borrowed: `tez` or `KT1…_tokenId` */
  debt_token: string;
  /** token supplied as collateral: `tez` or `KT1…_tokenId` (the same token on single-token markets) */
  collateral_token: string;
  /** underlying supplied to the market after the last change (raw) */
  total_collateral: bigint | number;
  /** underlying borrowed from the market after the last change (raw) */
  total_debt: bigint | number;
  /**
   * Compound-style markets: the borrow index after the last change (10^18 fixed point), which grows a scaled borrow;
   * null for other markets
   */
  borrow_index?: bigint | number | null;
  /**
   * Compound-style markets: what the suppliers own after the last change (10^18 fixed point; Yupana: totalLiquidF +
   * totalBorrowsF − totalReservesF); null for other markets
   */
  supply_liquidity?: bigint | number | null;
  /**
   * Compound-style markets: the shares issued after the last change (10^18 fixed point; Yupana: totalSupplyF); a share
   * is worth supply_liquidity / share_supply. Null for other markets
   */
  share_supply?: bigint | number | null;
  /** owners with a supply now */
  num_deposits: bigint | number;
  /** owners with a debt now */
  num_borrows: bigint | number;
  /** height of the market creation (or of the first indexed operation when the creation was not indexed) */
  first_height: bigint | number;
  /** time of first_height */
  first_time: Date | number | string;
  /** height of the latest change of this row */
  update_height: bigint | number;
};

/** A lend_pool row as read (CatalogRows): values as explorer objects show them. */
export type LendPoolRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  name: string;
  creator: string | null;
  debt_token: string;
  collateral_token: string;
  total_collateral: string;
  total_debt: string;
  borrow_index: string | null;
  supply_liquidity: string | null;
  share_supply: string | null;
  num_deposits: number | bigint;
  num_borrows: number | bigint;
  first_height: number | bigint;
  first_time: string;
  update_height: number | bigint;
};

/** lending events (deposit, withdraw, borrow, repay, liquidate) with the market's supply and debt after each */
export type LendEventRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** market address `KT1…_poolId` */
  pool: string;
  /** lending contract */
  contract: string;
  /** market id inside the contract */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** what happened */
  event_type: 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'liquidate';
  /** token lent and borrowed: `tez` or `KT1…_tokenId` */
  debt_token: string;
  /** token supplied: `tez` or `KT1…_tokenId` */
  collateral_token: string;
  /** owner of the position the event moved (the borrower on liquidations) */
  owner: string;
  /**
   * the stake_id of the position the event moved (lend_position); null only on rows indexed before stake ids were set
   */
  stake_id?: bigint | number | null;
  /** underlying moved by the event (raw, absolute; liquidations: debt repaid) */
  volume: bigint | number;
  /** market's total debt after the event (raw) */
  debt: bigint | number;
  /** market's total supply after the event (raw) */
  collateral: bigint | number;
  /** fee kept by the market (raw) */
  fee: bigint | number;
  /** interest paid with the event (raw); null when the contract does not tell */
  interest?: bigint | number | null;
  /** account that signed the operation group */
  signer: string;
  /** account that called the market (the liquidator on liquidations) */
  sender: string;
  /** account that received what the market paid out, else the owner */
  receiver: string;
  /** operation group hash */
  tx_hash: string;
  /** fee paid by the group's signer for the operation (tez) */
  tx_fee: bigint;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
};

/** A lend_event row as read (CatalogRows): values as explorer objects show them. */
export type LendEventRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  event_type: 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'liquidate';
  debt_token: string;
  collateral_token: string;
  owner: string;
  stake_id: number | bigint | null;
  volume: string;
  debt: string;
  collateral: string;
  fee: string;
  interest: string | null;
  signer: string;
  sender: string;
  receiver: string;
  tx_hash: string;
  tx_fee: number;
  height: number | bigint;
  time: string;
};

/** lending positions, one per market and owner (closed when neither supply nor debt is left) */
export type LendPositionRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** market address `KT1…_poolId` */
  pool: string;
  /** lending contract */
  contract: string;
  /** market id inside the contract */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** `{pool}:{owner}`, the position's unique key */
  position: string;
  /** supplier or borrower */
  owner: string;
  /**
   * the position's id: the contract's (ctez oven id) where it has one, else this row's row_id; null until a row indexed
   * before stake ids were set changes
   */
  stake_id?: bigint | number | null;
  /** token lent and borrowed: `tez` or `KT1…_tokenId` */
  debt_token: string;
  /** token supplied: `tez` or `KT1…_tokenId` */
  collateral_token: string;
  /** underlying supplied now (raw) */
  balance: bigint | number;
  /** underlying owed now (raw) */
  debt: bigint | number;
  /** underlying supplied so far (raw) */
  deposited: bigint | number;
  /** underlying withdrawn so far (raw) */
  withdrawn: bigint | number;
  /** underlying borrowed so far (raw) */
  borrowed: bigint | number;
  /** underlying repaid so far by the owner (raw) */
  repaid: bigint | number;
  /** debt repaid by liquidators so far (raw) */
  liquidated: bigint | number;
  /** supply moved to other accounts so far (raw): share transfers and collateral seized by liquidators */
  sent: bigint | number;
  /** supply received from other accounts so far (raw): share transfers and collateral seized as liquidator */
  received: bigint | number;
  /**
   * interest earned on the supply (raw) as of this position's latest change; the API brings it to the market's latest
   * rates where the market keeps them. Null when the contract does not tell
   */
  interest_earned?: bigint | number | null;
  /** interest paid on the debt (raw); null when the contract does not tell */
  interest_paid?: bigint | number | null;
  /**
   * interest owed and not paid (raw) as of this position's latest change; the API brings it to the market's latest
   * rates where the market keeps them. Null when the contract does not tell
   */
  interest_pending?: bigint | number | null;
  /**
   * the owner's share of the market as the contract keeps it (10^18 fixed point: Yupana's yToken `ledger`) after its
   * last change; null when the contract keeps none
   */
  shares?: bigint | number | null;
  /**
   * the owner's borrow as the contract keeps it (underlying ×10^18: Yupana's `accounts.borrow`) after its last change;
   * null when the contract keeps none
   */
  borrow_scaled?: bigint | number | null;
  /**
   * the market's borrow index (×10^18) the owner's borrow was last brought to (Yupana's `lastBorrowIndex`); null when
   * the contract keeps none
   */
  borrow_index?: bigint | number | null;
  /** the owner uses this market as collateral; null when not seen */
  is_collateral?: boolean | null;
  /** neither supply nor debt is left */
  is_closed: boolean;
  /** height at which the position opened (last reopen) */
  open_height: bigint | number;
  /** time of open_height */
  open_time: Date | number | string;
  /** height at which supply and debt reached 0; null while open */
  close_height?: bigint | number | null;
  /** time of close_height */
  close_time?: Date | number | string | null;
  /** height of the latest change of this row */
  update_height: bigint | number;
};

/** A lend_position row as read (CatalogRows): values as explorer objects show them. */
export type LendPositionRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  position: string;
  owner: string;
  stake_id: number | bigint | null;
  debt_token: string;
  collateral_token: string;
  balance: string;
  debt: string;
  deposited: string;
  withdrawn: string;
  borrowed: string;
  repaid: string;
  liquidated: string;
  sent: string;
  received: string;
  interest_earned: string | null;
  interest_paid: string | null;
  interest_pending: string | null;
  shares: string | null;
  borrow_scaled: string | null;
  borrow_index: string | null;
  is_collateral: boolean | null;
  is_closed: boolean;
  open_height: number | bigint;
  open_time: string;
  close_height: number | bigint | null;
  close_time: string | null;
  update_height: number | bigint;
};

/** Typed handles of the defi-lending tables: `ctx.append(tables.lend_pool, row)`. */
export const tables = {
  lend_pool: tableHandle<LendPoolRow, LendPoolRead>('lend_pool'),
  lend_event: tableHandle<LendEventRow, LendEventRead>('lend_event'),
  lend_position: tableHandle<LendPositionRow, LendPositionRead>('lend_position'),
} as const;
