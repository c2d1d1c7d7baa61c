// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode, TypedValue } from '../../../../framework';
import { PAIR_T, QUIPU_V2_DEXCORE, TOKENS_T } from './types';

/** The decoded PAIR_T. */
export type PairT = {
  token_a_pool: bigint;
  token_b_pool: bigint;
  token_a_price_cml: bigint;
  token_b_price_cml: bigint;
  total_supply: bigint;
  last_block_timestamp: Date | string;
  bucket: string | null;
};

export const pairTType = new TypedValue<PairT>(PAIR_T);

/** quipuswap v2 dexcore: the decoded storage. */
export type QuipuV2DexcoreStorage = {
  storage: {
    token_metadata: BigMap<bigint, { token_id: bigint; token_info: Map<string, string> }>;
    ledger: BigMap<{ '0': string; '1': bigint }, bigint>;
    accounts: BigMap<{ '0': string; '1': bigint }, Array<string>>;
    tokens: BigMap<
      bigint,
      {
        token_a: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
        token_b: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
      }
    >;
    token_to_id: BigMap<string, bigint>;
    pairs: BigMap<
      bigint,
      {
        token_a_pool: bigint;
        token_b_pool: bigint;
        token_a_price_cml: bigint;
        token_b_price_cml: bigint;
        total_supply: bigint;
        last_block_timestamp: Date | string;
        bucket: string | null;
      }
    >;
    permits: BigMap<
      string,
      { permits: Map<string, { created_at: Date | string; expiry: bigint | null }>; expiry: bigint | null }
    >;
    interface_fee: BigMap<
      { '0': { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null }; '1': string },
      bigint
    >;
    interface_tez_fee: BigMap<{ '0': bigint; '1': string }, bigint>;
    auction_fee: BigMap<{ fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null }, bigint>;
    auction_tez_fee: BigMap<bigint, bigint>;
    managers: Array<string>;
    fees: { interface_fee: bigint; swap_fee: bigint; auction_fee: bigint; withdraw_fee_reward: bigint };
    admin: string;
    pending_admin: string | null;
    baker_registry: string;
    flash_swaps_proxy: string;
    auction: string;
    permits_counter: bigint;
    default_expiry: bigint;
    entered: boolean;
    tokens_count: bigint;
    collecting_period: bigint;
    baker_rate_f: bigint;
  };
  dex_core_lambdas: BigMap<bigint, string>;
  metadata: BigMap<string, string>;
};

/** quipuswap v2 dexcore: each entrypoint's decoded argument. */
export interface QuipuV2DexcoreParameters {
  default: null;
  setup_func: { idx: bigint; func_bytes: string };
  use:
    | { add_managers: Array<{ manager: string; add: boolean }> }
    | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
    | { ban: { pair_id: bigint; ban_params: { baker: string; ban_period: bigint } } }
    | { claim: { pair_id: bigint; receiver: string; referral_code: bigint | null } }
    | {
        claim_interface_fee: {
          token: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
          receiver: string;
          referral_code: bigint | null;
        };
      }
    | { claim_interface_tez_fee: { pair_id: bigint; receiver: string; referral_code: bigint | null } }
    | { close: null }
    | { confirm_admin: null }
    | {
        divest_liquidity: {
          pair_id: bigint;
          min_token_a_out: bigint;
          min_token_b_out: bigint;
          shares: bigint;
          liquidity_receiver: string;
          candidate: string;
          deadline: Date | string;
          referral_code: bigint | null;
        };
      }
    | { flash_swap_callback: { pair_id: bigint; prev_tez_balance: bigint; amount_in: bigint } }
    | {
        invest_liquidity: {
          pair_id: bigint;
          token_a_in: bigint;
          token_b_in: bigint;
          shares: bigint;
          shares_receiver: string;
          candidate: string;
          deadline: Date | string;
          referral_code: bigint | null;
        };
      }
    | {
        launch_callback: {
          vote_params: { voter: string; candidate: string; execute_voting: boolean; votes: bigint };
          bucket: string;
        };
      }
    | {
        launch_exchange: {
          pair: {
            token_a: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
            token_b: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
          };
          token_a_in: bigint;
          token_b_in: bigint;
          shares_receiver: string;
          candidate: string;
          deadline: Date | string;
          referral_code: bigint | null;
        };
      }
    | { permit: Array<{ '0': string; '1': string; permit_hash: string }> }
    | { set_admin: string }
    | { set_auction: string }
    | { set_baker_rate: bigint }
    | { set_collecting_period: bigint }
    | { set_expiry: { issuer: string; expiry: bigint; permit_hash: string | null } }
    | { set_fees: { interface_fee: bigint; swap_fee: bigint; auction_fee: bigint; withdraw_fee_reward: bigint } }
    | { set_flash_swaps_proxy: string }
    | {
        swap: {
          lambda: unknown | null;
          swaps: Array<{ direction: { a_to_b: null } | { b_to_a: null }; pair_id: bigint }>;
          deadline: Date | string;
          receiver: string;
          referrer: string;
          amount_in: bigint;
          min_amount_out: bigint;
          referral_code: bigint | null;
        };
      }
    | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
    | {
        update_operators: Array<
          | { add_operator: { owner: string; operator: string; token_id: bigint } }
          | { remove_operator: { owner: string; operator: string; token_id: bigint } }
        >;
      }
    | { update_token_metadata: { token_id: bigint; token_info: Map<string, string> } }
    | { vote: { pair_id: bigint; candidate: string; referral_code: bigint | null } }
    | {
        withdraw_auction_fee: {
          pair_id: bigint | null;
          token: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
          referral_code: bigint | null;
        };
      }
    | { withdraw_profit: { receiver: string; pair_id: bigint; referral_code: bigint | null } };
  add_managers: Array<{ manager: string; add: boolean }>;
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  ban: { pair_id: bigint; ban_params: { baker: string; ban_period: bigint } };
  claim: { pair_id: bigint; receiver: string; referral_code: bigint | null };
  claim_interface_fee: {
    token: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
    receiver: string;
    referral_code: bigint | null;
  };
  claim_interface_tez_fee: { pair_id: bigint; receiver: string; referral_code: bigint | null };
  close: null;
  confirm_admin: null;
  divest_liquidity: {
    pair_id: bigint;
    min_token_a_out: bigint;
    min_token_b_out: bigint;
    shares: bigint;
    liquidity_receiver: string;
    candidate: string;
    deadline: Date | string;
    referral_code: bigint | null;
  };
  flash_swap_callback: { pair_id: bigint; prev_tez_balance: bigint; amount_in: bigint };
  invest_liquidity: {
    pair_id: bigint;
    token_a_in: bigint;
    token_b_in: bigint;
    shares: bigint;
    shares_receiver: string;
    candidate: string;
    deadline: Date | string;
    referral_code: bigint | null;
  };
  launch_callback: {
    vote_params: { voter: string; candidate: string; execute_voting: boolean; votes: bigint };
    bucket: string;
  };
  launch_exchange: {
    pair: {
      token_a: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
      token_b: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
    };
    token_a_in: bigint;
    token_b_in: bigint;
    shares_receiver: string;
    candidate: string;
    deadline: Date | string;
    referral_code: bigint | null;
  };
  permit: Array<{ '0': string; '1': string; permit_hash: string }>;
  set_admin: string;
  set_auction: string;
  set_baker_rate: bigint;
  set_collecting_period: bigint;
  set_expiry: { issuer: string; expiry: bigint; permit_hash: string | null };
  set_fees: { interface_fee: bigint; swap_fee: bigint; auction_fee: bigint; withdraw_fee_reward: bigint };
  set_flash_swaps_proxy: string;
  swap: {
    lambda: unknown | null;
    swaps: Array<{ direction: { a_to_b: null } | { b_to_a: null }; pair_id: bigint }>;
    deadline: Date | string;
    receiver: string;
    referrer: string;
    amount_in: bigint;
    min_amount_out: bigint;
    referral_code: bigint | null;
  };
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  update_token_metadata: { token_id: bigint; token_info: Map<string, string> };
  vote: { pair_id: bigint; candidate: string; referral_code: bigint | null };
  withdraw_auction_fee: {
    pair_id: bigint | null;
    token: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
    referral_code: bigint | null;
  };
  withdraw_profit: { receiver: string; pair_id: bigint; referral_code: bigint | null };
}

export const quipuV2DexcoreCode = new TypedCode<QuipuV2DexcoreStorage, QuipuV2DexcoreParameters>(
  QUIPU_V2_DEXCORE.types,
);

/** The decoded TOKENS_T. */
export type TokensT = {
  token_a: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
  token_b: { fa12: string } | { fa2: { token: string; id: bigint } } | { tez: null };
};

export const tokensTType = new TypedValue<TokensT>(TOKENS_T);
