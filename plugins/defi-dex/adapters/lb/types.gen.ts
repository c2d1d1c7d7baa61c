// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { TypedCode } from '../../../../framework';
import { LB_CPMM } from './types';

/** liquidity baking cpmm: the decoded storage. */
export type LbCpmmStorage = {
  tokenPool: bigint;
  xtzPool: bigint;
  lqtTotal: bigint;
  tokenAddress: string;
  lqtAddress: string;
};

/** liquidity baking cpmm: each entrypoint's decoded argument. */
export interface LbCpmmParameters {
  addLiquidity: { owner: string; minLqtMinted: bigint; maxTokensDeposited: bigint; deadline: Date | string };
  default: null;
  removeLiquidity: {
    to: string;
    lqtBurned: bigint;
    minXtzWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  tokenToToken: {
    outputDexterContract: string;
    minTokensBought: bigint;
    to: string;
    tokensSold: bigint;
    deadline: Date | string;
  };
  tokenToXtz: { to: string; tokensSold: bigint; minXtzBought: bigint; deadline: Date | string };
  xtzToToken: { to: string; minTokensBought: bigint; deadline: Date | string };
}

export const lbCpmmCode = new TypedCode<LbCpmmStorage, LbCpmmParameters>(LB_CPMM.types);
