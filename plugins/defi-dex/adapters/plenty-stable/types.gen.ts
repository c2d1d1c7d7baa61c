// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { TypedCode } from '../../../../framework';
import { PLENTY_STABLE_CTEZ, PLENTY_STABLE_TOKEN } from './types';

/** plenty stable ctez/tez: the decoded storage. */
export type PlentyStableCtezStorage = {
  Locked: boolean;
  admin: string;
  ctezAddress: string;
  ctezFee: bigint;
  ctezPool: bigint;
  ctez_admin: string;
  lpFee: bigint;
  lqtAddress: string;
  lqtTotal: bigint;
  minAmount: bigint | null;
  paused: boolean;
  recipient: string | null;
  sender: string | null;
  state: boolean;
  tezPool: bigint;
  tradeAmount: bigint | null;
  voterContract: string | null;
  xtzFee: bigint;
};

/** plenty stable ctez/tez: each entrypoint's decoded argument. */
export interface PlentyStableCtezParameters {
  ChangeAdmin: string;
  ChangeBakerAddress: string | null;
  ChangeLockState: null;
  ChangeState: null;
  ChangeSystem: string;
  add_liquidity: { maxCashDeposited: bigint; minLqtMinted: bigint; owner: string };
  ctez_to_tez: { cashSold: bigint; minTezBought: bigint; recipient: string };
  ctez_to_tez_callback: bigint;
  default: null;
  forwardFee: { epoch: bigint; feeDistributor: string };
  remove_liquidity: { lqtBurned: bigint; minCashWithdrawn: bigint; minTezWithdrawn: bigint };
  tez_to_ctez: { minCashBought: bigint; recipient: string };
  tez_to_ctez_callback: bigint;
}

export const plentyStableCtezCode = new TypedCode<PlentyStableCtezStorage, PlentyStableCtezParameters>(
  PLENTY_STABLE_CTEZ.types,
);

/** plenty stable token: the decoded storage. */
export type PlentyStableTokenStorage = {
  admin: string;
  lpFee: bigint;
  lqtAddress: string;
  lqtTotal: bigint;
  paused: boolean;
  state: boolean;
  token1Address: string;
  token1Check: boolean;
  token1Fee: bigint;
  token1Id: bigint;
  token1Pool: bigint;
  token1Precision: bigint;
  token2Address: string;
  token2Check: boolean;
  token2Fee: bigint;
  token2Id: bigint;
  token2Pool: bigint;
  token2Precision: bigint;
  voterContract: string | null;
};

/** plenty stable token: each entrypoint's decoded argument. */
export interface PlentyStableTokenParameters {
  ChangeAdmin: string;
  ChangeState: null;
  ChangeSystem: string;
  ModifyFee: bigint;
  Swap: {
    MinimumTokenOut: bigint;
    recipient: string;
    requiredTokenAddress: string;
    requiredTokenId: bigint;
    tokenAmountIn: bigint;
  };
  add_liquidity: { recipient: string; token1_max: bigint; token2_max: bigint };
  forwardFee: { epoch: bigint; feeDistributor: string };
  remove_liquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint };
  default:
    | { ChangeAdmin: string }
    | { ChangeState: null }
    | { ChangeSystem: string }
    | { ModifyFee: bigint }
    | {
        Swap: {
          MinimumTokenOut: bigint;
          recipient: string;
          requiredTokenAddress: string;
          requiredTokenId: bigint;
          tokenAmountIn: bigint;
        };
      }
    | { add_liquidity: { recipient: string; token1_max: bigint; token2_max: bigint } }
    | { forwardFee: { epoch: bigint; feeDistributor: string } }
    | { remove_liquidity: { lpAmount: bigint; recipient: string; token1_min: bigint; token2_min: bigint } };
}

export const plentyStableTokenCode = new TypedCode<PlentyStableTokenStorage, PlentyStableTokenParameters>(
  PLENTY_STABLE_TOKEN.types,
);
