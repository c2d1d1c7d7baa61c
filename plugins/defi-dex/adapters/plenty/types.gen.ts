// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { TypedCode } from '../../../../framework';
import { PLENTY_VOLATILE, PLENTY_VOLATILE_SYSTEM_FEE } from './types';

/** plenty volatile: the decoded storage. */
export type PlentyVolatileStorage = {
  admin: string;
  lpFee: bigint;
  lpTokenAddress: string;
  maxSwapLimit: bigint;
  paused: boolean;
  state: boolean;
  token1Address: string;
  token1Check: boolean;
  token1Id: bigint;
  token1_Fee: bigint;
  token1_pool: bigint;
  token2Address: string;
  token2Check: boolean;
  token2Id: bigint;
  token2_Fee: bigint;
  token2_pool: bigint;
  totalSupply: bigint;
  voterContract: string | null;
};

/** plenty volatile: each entrypoint's decoded argument. */
export interface PlentyVolatileParameters {
  AddLiquidity: { recipient: string; token1_max: bigint; token2_max: bigint };
  ChangeAdmin: string;
  ChangeState: null;
  ChangeSystem: string;
  ModifyFee: bigint;
  ModifyMaxSwapAmount: bigint;
  RemoveLiquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint };
  Swap: {
    MinimumTokenOut: bigint;
    recipient: string;
    requiredTokenAddress: string;
    requiredTokenId: bigint;
    tokenAmountIn: bigint;
  };
  forwardFee: { epoch: bigint; feeDistributor: string };
  default:
    | { AddLiquidity: { recipient: string; token1_max: bigint; token2_max: bigint } }
    | { ChangeAdmin: string }
    | { ChangeState: null }
    | { ChangeSystem: string }
    | { ModifyFee: bigint }
    | { ModifyMaxSwapAmount: bigint }
    | { RemoveLiquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint } }
    | {
        Swap: {
          MinimumTokenOut: bigint;
          recipient: string;
          requiredTokenAddress: string;
          requiredTokenId: bigint;
          tokenAmountIn: bigint;
        };
      }
    | { forwardFee: { epoch: bigint; feeDistributor: string } };
}

export const plentyVolatileCode = new TypedCode<PlentyVolatileStorage, PlentyVolatileParameters>(PLENTY_VOLATILE.types);

/** plenty volatile with system fee: the decoded storage. */
export type PlentyVolatileSystemFeeStorage = {
  admin: string;
  lpFee: bigint;
  lpTokenAddress: string;
  maxSwapLimit: bigint;
  paused: boolean;
  systemFee: bigint;
  token1Address: string;
  token1Check: boolean;
  token1Id: bigint;
  token1_Fee: bigint;
  token1_pool: bigint;
  token2Address: string;
  token2Check: boolean;
  token2Id: bigint;
  token2_Fee: bigint;
  token2_pool: bigint;
  totalSupply: bigint;
};

/** plenty volatile with system fee: each entrypoint's decoded argument. */
export interface PlentyVolatileSystemFeeParameters {
  AddLiquidity: { recipient: string; token1_max: bigint; token2_max: bigint };
  ChangeAdmin: string;
  ChangeState: null;
  ModifyFee: { lpFee: bigint; systemFee: bigint };
  ModifyMaxSwapAmount: bigint;
  RemoveLiquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint };
  Swap: {
    MinimumTokenOut: bigint;
    recipient: string;
    requiredTokenAddress: string;
    requiredTokenId: bigint;
    tokenAmountIn: bigint;
  };
  WithdrawSystemFee: string;
  getExchangeFee: { token1Address: string; token1Id: bigint; token2Address: string; token2Id: bigint; '4': string };
  getReserveBalance: { token1Address: string; token1Id: bigint; token2Address: string; token2Id: bigint; '4': string };
  default:
    | { AddLiquidity: { recipient: string; token1_max: bigint; token2_max: bigint } }
    | { ChangeAdmin: string }
    | { ChangeState: null }
    | { ModifyFee: { lpFee: bigint; systemFee: bigint } }
    | { ModifyMaxSwapAmount: bigint }
    | { RemoveLiquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint } }
    | {
        Swap: {
          MinimumTokenOut: bigint;
          recipient: string;
          requiredTokenAddress: string;
          requiredTokenId: bigint;
          tokenAmountIn: bigint;
        };
      }
    | { WithdrawSystemFee: string }
    | {
        getExchangeFee: {
          token1Address: string;
          token1Id: bigint;
          token2Address: string;
          token2Id: bigint;
          '4': string;
        };
      }
    | {
        getReserveBalance: {
          token1Address: string;
          token1Id: bigint;
          token2Address: string;
          token2Id: bigint;
          '4': string;
        };
      };
}

export const plentyVolatileSystemFeeCode = new TypedCode<
  PlentyVolatileSystemFeeStorage,
  PlentyVolatileSystemFeeParameters
>(PLENTY_VOLATILE_SYSTEM_FEE.types);
