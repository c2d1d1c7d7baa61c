// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { TypedCode } from '../../../../framework';
import { YOUVES_FLAT_FA12_CASH, YOUVES_FLAT_FA2_CASH, YOUVES_FLAT_NO_UPDATES } from './types';

/** youves flat fa1.2 cash: the decoded storage. */
export type YouvesFlatFa12CashStorage = {
  tokenPool: bigint;
  tokenAddress: string;
  tokenMultiplier: bigint;
  tokenId: bigint;
  cashPool: bigint;
  cashAddress: string;
  cashMultiplier: bigint;
  admin: string;
  proposedAdmin: string;
  lqtTotal: bigint;
  lqtAddress: string;
  pendingPoolUpdates: bigint;
  rewardRecipient: string;
  feeRatio: { numerator: bigint; denominator: bigint };
};

/** youves flat fa1.2 cash: each entrypoint's decoded argument. */
export interface YouvesFlatFa12CashParameters {
  acceptAdminProposal: null;
  addLiquidity: {
    owner: string;
    minLqtMinted: bigint;
    maxTokensDeposited: bigint;
    cashDeposited: bigint;
    deadline: Date | string;
  };
  cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string };
  changeFee: { numerator: bigint; denominator: bigint };
  proposeNewAdmin: string;
  removeLiquidity: {
    to: string;
    lqtBurned: bigint;
    minCashWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  setLqtAddress: string;
  setRewardRecipient: string;
  tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string };
  updateCashPoolInternal: bigint;
  updatePools: null;
  updateTokenPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }>;
  default:
    | { acceptAdminProposal: null }
    | {
        addLiquidity: {
          owner: string;
          minLqtMinted: bigint;
          maxTokensDeposited: bigint;
          cashDeposited: bigint;
          deadline: Date | string;
        };
      }
    | { cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string } }
    | { changeFee: { numerator: bigint; denominator: bigint } }
    | { proposeNewAdmin: string }
    | {
        removeLiquidity: {
          to: string;
          lqtBurned: bigint;
          minCashWithdrawn: bigint;
          minTokensWithdrawn: bigint;
          deadline: Date | string;
        };
      }
    | { setLqtAddress: string }
    | { setRewardRecipient: string }
    | { tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string } }
    | { updateCashPoolInternal: bigint }
    | { updatePools: null }
    | { updateTokenPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }> };
}

export const youvesFlatFa12CashCode = new TypedCode<YouvesFlatFa12CashStorage, YouvesFlatFa12CashParameters>(
  YOUVES_FLAT_FA12_CASH.types,
);

/** youves flat fa2 cash: the decoded storage. */
export type YouvesFlatFa2CashStorage = {
  tokenPool: bigint;
  tokenAddress: string;
  tokenMultiplier: bigint;
  tokenId: bigint;
  cashPool: bigint;
  cashAddress: string;
  cashMultiplier: bigint;
  cashId: bigint;
  admin: string;
  proposedAdmin: string;
  lqtTotal: bigint;
  lqtAddress: string;
  pendingPoolUpdates: bigint;
  rewardRecipient: string;
  feeRatio: { numerator: bigint; denominator: bigint };
};

/** youves flat fa2 cash: each entrypoint's decoded argument. */
export interface YouvesFlatFa2CashParameters {
  acceptAdminProposal: null;
  addLiquidity: {
    owner: string;
    minLqtMinted: bigint;
    maxTokensDeposited: bigint;
    cashDeposited: bigint;
    deadline: Date | string;
  };
  cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string };
  changeFee: { numerator: bigint; denominator: bigint };
  proposeNewAdmin: string;
  removeLiquidity: {
    to: string;
    lqtBurned: bigint;
    minCashWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  setLqtAddress: string;
  setRewardRecipient: string;
  tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string };
  updateCashPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }>;
  updatePools: null;
  updateTokenPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }>;
  default:
    | { acceptAdminProposal: null }
    | {
        addLiquidity: {
          owner: string;
          minLqtMinted: bigint;
          maxTokensDeposited: bigint;
          cashDeposited: bigint;
          deadline: Date | string;
        };
      }
    | { cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string } }
    | { changeFee: { numerator: bigint; denominator: bigint } }
    | { proposeNewAdmin: string }
    | {
        removeLiquidity: {
          to: string;
          lqtBurned: bigint;
          minCashWithdrawn: bigint;
          minTokensWithdrawn: bigint;
          deadline: Date | string;
        };
      }
    | { setLqtAddress: string }
    | { setRewardRecipient: string }
    | { tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string } }
    | { updateCashPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }> }
    | { updatePools: null }
    | { updateTokenPoolInternal: Array<{ '0': string; '1': bigint; '2': bigint }> };
}

export const youvesFlatFa2CashCode = new TypedCode<YouvesFlatFa2CashStorage, YouvesFlatFa2CashParameters>(
  YOUVES_FLAT_FA2_CASH.types,
);

/** youves flat without pool updates: the decoded storage. */
export type YouvesFlatNoUpdatesStorage = {
  tokenPool: bigint;
  tokenAddress: string;
  tokenMultiplier: bigint;
  tokenId: bigint;
  cashPool: bigint;
  cashAddress: string;
  cashMultiplier: bigint;
  cashId: bigint;
  admin: string;
  proposedAdmin: string;
  lqtTotal: bigint;
  lqtAddress: string;
  rewardRecipient: string;
  feeRatio: { numerator: bigint; denominator: bigint };
};

/** youves flat without pool updates: each entrypoint's decoded argument. */
export interface YouvesFlatNoUpdatesParameters {
  acceptAdminProposal: null;
  addLiquidity: {
    owner: string;
    minLqtMinted: bigint;
    maxTokensDeposited: bigint;
    cashDeposited: bigint;
    deadline: Date | string;
  };
  cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string };
  changeFee: { numerator: bigint; denominator: bigint };
  proposeNewAdmin: string;
  removeLiquidity: {
    to: string;
    lqtBurned: bigint;
    minCashWithdrawn: bigint;
    minTokensWithdrawn: bigint;
    deadline: Date | string;
  };
  setLqtAddress: string;
  setRewardRecipient: string;
  tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string };
  default:
    | { acceptAdminProposal: null }
    | {
        addLiquidity: {
          owner: string;
          minLqtMinted: bigint;
          maxTokensDeposited: bigint;
          cashDeposited: bigint;
          deadline: Date | string;
        };
      }
    | { cashToToken: { to: string; minTokensBought: bigint; cashSold: bigint; deadline: Date | string } }
    | { changeFee: { numerator: bigint; denominator: bigint } }
    | { proposeNewAdmin: string }
    | {
        removeLiquidity: {
          to: string;
          lqtBurned: bigint;
          minCashWithdrawn: bigint;
          minTokensWithdrawn: bigint;
          deadline: Date | string;
        };
      }
    | { setLqtAddress: string }
    | { setRewardRecipient: string }
    | { tokenToCash: { to: string; tokensSold: bigint; minCashBought: bigint; deadline: Date | string } };
}

export const youvesFlatNoUpdatesCode = new TypedCode<YouvesFlatNoUpdatesStorage, YouvesFlatNoUpdatesParameters>(
  YOUVES_FLAT_NO_UPDATES.types,
);
