// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode, TypedValue } from '../../../../framework';
import { ADDRESS, BALANCE_ENTRY, NAT, PLENTY_FARM_TYPES } from './types';

/** The decoded ADDRESS. */
export type Address = string;

export const addressType = new TypedValue<Address>(ADDRESS);

/** The decoded BALANCE_ENTRY. */
export type BalanceEntry = {
  InvestMap: Map<bigint, { amount: bigint; level: bigint }>;
  balance: bigint;
  counter: bigint;
  rewards: bigint;
  userRewardPerTokenPaid: bigint;
};

export const balanceEntryType = new TypedValue<BalanceEntry>(BALANCE_ENTRY);

/** The decoded NAT. */
export type Nat = bigint;

export const natType = new TypedValue<Nat>(NAT);

/** The contract: the decoded storage. */
export type PlentyFarmTypesStorage = {
  admin: string;
  balances: BigMap<
    string,
    {
      InvestMap: Map<bigint, { amount: bigint; level: bigint }>;
      balance: bigint;
      counter: bigint;
      rewards: bigint;
      userRewardPerTokenPaid: bigint;
    }
  >;
  blocksPerCycle: bigint;
  defaultUnstakeFee: bigint;
  faTwoToken: boolean;
  lastUpdateTime: bigint;
  paused: boolean;
  periodFinish: bigint;
  rewardPerTokenStored: bigint;
  rewardRate: bigint;
  rewardToken: string;
  stakeToken: string;
  totalFee: bigint;
  totalSupply: bigint;
  unstakeFee: Map<bigint, bigint>;
};

/** The contract: each entrypoint's decoded argument. */
export interface PlentyFarmTypesParameters {
  AddReward: { blocks: bigint; reward: bigint };
  GetReward: null;
  RecoverExcessToken: { address: string; id: bigint; token: string; type: bigint; value: bigint };
  WithdrawFee: null;
  changeAdmin: string;
  changeState: null;
  changeUnstakeFee: { blocksPerCycle: bigint; cycles: bigint; defaultFee: bigint; fee: bigint };
  stake: bigint;
  unstake: { Amount: bigint; MapKey: bigint };
  default:
    | { AddReward: { blocks: bigint; reward: bigint } }
    | { GetReward: null }
    | { RecoverExcessToken: { address: string; id: bigint; token: string; type: bigint; value: bigint } }
    | { WithdrawFee: null }
    | { changeAdmin: string }
    | { changeState: null }
    | { changeUnstakeFee: { blocksPerCycle: bigint; cycles: bigint; defaultFee: bigint; fee: bigint } }
    | { stake: bigint }
    | { unstake: { Amount: bigint; MapKey: bigint } };
}

export const plentyFarmTypesCode = new TypedCode<PlentyFarmTypesStorage, PlentyFarmTypesParameters>(PLENTY_FARM_TYPES);
