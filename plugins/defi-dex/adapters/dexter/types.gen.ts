// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { DEXTER_V1 } from './types';

/** dexter v1: the decoded storage. */
export type DexterV1Storage = {
  accounts: BigMap<string, { balance: bigint; '1': Map<string, bigint> }>;
  selfIsUpdatingTokenPool: boolean;
  freezeBaker: boolean;
  lqtTotal: bigint;
  manager: string;
  tokenAddress: string;
  tokenPool: bigint;
  xtzPool: bigint;
};

/** dexter v1: each entrypoint's decoded argument. */
export interface DexterV1Parameters {
  approve: { spender: string; allowance: bigint; currentAllowance: bigint };
  addLiquidity: { owner: string; minLqtMinted: bigint; maxTokensDeposited: bigint; deadline: Date | string };
  removeLiquidity: {
    owner: string;
    to: string;
    lqtBurned: bigint;
    minXtzWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  xtzToToken: { to: string; minTokensBought: bigint; deadline: Date | string };
  tokenToXtz: { owner: string; to: string; tokensSold: bigint; minXtzBought: bigint; deadline: Date | string };
  tokenToToken: {
    outputDexterContract: string;
    minTokensBought: bigint;
    owner: string;
    to: string;
    tokensSold: bigint;
    deadline: Date | string;
  };
  updateTokenPool: string;
  updateTokenPoolInternal: bigint;
  setBaker: { '0': string | null; '1': boolean };
  setManager: string;
  default: null;
}

export const dexterV1Code = new TypedCode<DexterV1Storage, DexterV1Parameters>(DEXTER_V1.types);
