// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { TypedValue } from '../../../../framework';
import { ACCOUNT, KEY, NAT, TOKEN } from './types';

/** The decoded ACCOUNT. */
export type Account = { allowances: Array<string>; borrow: bigint; lastBorrowIndex: bigint };

export const accountType = new TypedValue<Account>(ACCOUNT);

/** The decoded KEY. */
export type Key = { '0': string; '1': bigint };

export const keyType = new TypedValue<Key>(KEY);

/** The decoded NAT. */
export type Nat = bigint;

export const natType = new TypedValue<Nat>(NAT);

/** The decoded TOKEN. */
export type Token = {
  mainToken: { fA12: string } | { fA2: { '0': string; '1': bigint } };
  interestRateModel: string;
  interestUpdateTime: Date | string;
  priceUpdateTime: Date | string;
  totalBorrowsF: bigint;
  totalLiquidF: bigint;
  totalSupplyF: bigint;
  totalReservesF: bigint;
  borrowIndex: bigint;
  maxBorrowRate: bigint;
  collateralFactorF: bigint;
  liquidReserveRateF: bigint;
  reserveFactorF: bigint;
  lastPrice: bigint;
  borrowPause: boolean;
  enterMintPause: boolean;
  isInterestUpdating: boolean;
  threshold: bigint;
};

export const tokenType = new TypedValue<Token>(TOKEN);
