// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { VORTEX_FA12 } from './types';

/** vortex fa1.2: the decoded storage. */
export type VortexFa12Storage = {
  tokenPool: bigint;
  xtzPool: bigint;
  lqtTotal: bigint;
  selfIsUpdatingTokenPool: boolean;
  freezeBaker: boolean;
  manager: string;
  tokenAddress: string;
  lqtAddress: string;
  history: BigMap<string, bigint>;
  user_investments: BigMap<string, { direction: { aDD: null } | { rEMOVE: null }; token: bigint; xtz: bigint }>;
  reserve: string;
};

/** vortex fa1.2: each entrypoint's decoded argument. */
export interface VortexFa12Parameters {
  addLiquidity: { owner: string; minLqtMinted: bigint; maxTokensDeposited: bigint; deadline: Date | string };
  default: null;
  removeLiquidity: {
    to: string;
    lqtBurned: bigint;
    minXtzWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  setBaker: { baker: string | null; freezeBaker: boolean };
  setLqtAddress: string;
  setManager: string;
  tokenToToken: {
    outputDexterContract: string;
    minTokensBought: bigint;
    to: string;
    tokensSold: bigint;
    deadline: Date | string;
  };
  tokenToXtz: { to: string; tokensSold: bigint; minXtzBought: bigint; deadline: Date | string };
  updateReserve: string;
  updateTokenPool: null;
  updateTokenPoolInternal: bigint;
  xtzToToken: { to: string; minTokensBought: bigint; deadline: Date | string };
}

export const vortexFa12Code = new TypedCode<VortexFa12Storage, VortexFa12Parameters>(VORTEX_FA12.types);
