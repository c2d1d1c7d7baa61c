// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { QUIPU_V1_TYPES } from './types';

/** Version 0: the decoded storage. */
export type QuipuV1Types0Storage = {
  dex_lambdas: BigMap<bigint, unknown>;
  metadata: BigMap<string, string>;
  storage: {
    baker_validator: string;
    current_candidate: string | null;
    current_delegated: string | null;
    last_update_time: Date | string;
    last_veto: Date | string;
    ledger: BigMap<string, { allowances: Map<string, bigint>; balance: bigint; frozen_balance: bigint }>;
    period_finish: Date | string;
    reward: bigint;
    reward_paid: bigint;
    reward_per_sec: bigint;
    reward_per_share: bigint;
    tez_pool: bigint;
    token_address: string;
    token_pool: bigint;
    total_reward: bigint;
    total_supply: bigint;
    total_votes: bigint;
    user_rewards: BigMap<string, { reward: bigint; reward_paid: bigint }>;
    veto: bigint;
    vetos: BigMap<string, Date | string>;
    voters: BigMap<string, { candidate: string | null; last_veto: Date | string; veto: bigint; vote: bigint }>;
    votes: BigMap<string, bigint>;
  };
  token_lambdas: BigMap<bigint, unknown>;
};

/** Version 0: each entrypoint's decoded argument. */
export interface QuipuV1Types0Parameters {
  approve: { spender: string; value: bigint };
  default: null;
  getAllowance: { owner: string; spender: string; '2': string };
  getBalance: { owner: string; '1': string };
  getReserves: string;
  getTotalSupply: { '0': null; '1': string };
  transfer: { from: string; to: string; value: bigint };
  use:
    | { divestLiquidity: { min_tez: bigint; min_tokens: bigint; shares: bigint } }
    | { initializeExchange: bigint }
    | { investLiquidity: bigint }
    | { tezToTokenPayment: { min_out: bigint; receiver: string } }
    | { tokenToTezPayment: { amount: bigint; min_out: bigint; receiver: string } }
    | { veto: { value: bigint; voter: string } }
    | { vote: { candidate: string; value: bigint; voter: string } }
    | { withdrawProfit: string };
  divestLiquidity: { min_tez: bigint; min_tokens: bigint; shares: bigint };
  initializeExchange: bigint;
  investLiquidity: bigint;
  tezToTokenPayment: { min_out: bigint; receiver: string };
  tokenToTezPayment: { amount: bigint; min_out: bigint; receiver: string };
  veto: { value: bigint; voter: string };
  vote: { candidate: string; value: bigint; voter: string };
  withdrawProfit: string;
}

export const quipuV1Types0Code = new TypedCode<QuipuV1Types0Storage, QuipuV1Types0Parameters>(QUIPU_V1_TYPES[0]);

/** Version 1: the decoded storage. */
export type QuipuV1Types1Storage = {
  dex_lambdas: BigMap<bigint, unknown>;
  metadata: BigMap<string, string>;
  storage: {
    baker_validator: string;
    current_candidate: string | null;
    current_delegated: string | null;
    last_update_time: Date | string;
    last_veto: Date | string;
    ledger: BigMap<string, { allowances: Array<string>; balance: bigint; frozen_balance: bigint }>;
    period_finish: Date | string;
    reward: bigint;
    reward_paid: bigint;
    reward_per_sec: bigint;
    reward_per_share: bigint;
    tez_pool: bigint;
    token_address: string;
    token_id: bigint;
    token_pool: bigint;
    total_reward: bigint;
    total_supply: bigint;
    total_votes: bigint;
    user_rewards: BigMap<string, { reward: bigint; reward_paid: bigint }>;
    veto: bigint;
    vetos: BigMap<string, Date | string>;
    voters: BigMap<string, { candidate: string | null; last_veto: Date | string; veto: bigint; vote: bigint }>;
    votes: BigMap<string, bigint>;
  };
  token_lambdas: BigMap<bigint, unknown>;
};

/** Version 1: each entrypoint's decoded argument. */
export interface QuipuV1Types1Parameters {
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  default: null;
  get_reserves: string;
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  use:
    | { divestLiquidity: { min_tez: bigint; min_tokens: bigint; shares: bigint } }
    | { initializeExchange: bigint }
    | { investLiquidity: bigint }
    | { tezToTokenPayment: { min_out: bigint; receiver: string } }
    | { tokenToTezPayment: { amount: bigint; min_out: bigint; receiver: string } }
    | { veto: { value: bigint; voter: string } }
    | { vote: { candidate: string; value: bigint; voter: string } }
    | { withdrawProfit: string };
  divestLiquidity: { min_tez: bigint; min_tokens: bigint; shares: bigint };
  initializeExchange: bigint;
  investLiquidity: bigint;
  tezToTokenPayment: { min_out: bigint; receiver: string };
  tokenToTezPayment: { amount: bigint; min_out: bigint; receiver: string };
  veto: { value: bigint; voter: string };
  vote: { candidate: string; value: bigint; voter: string };
  withdrawProfit: string;
}

export const quipuV1Types1Code = new TypedCode<QuipuV1Types1Storage, QuipuV1Types1Parameters>(QUIPU_V1_TYPES[1]);
