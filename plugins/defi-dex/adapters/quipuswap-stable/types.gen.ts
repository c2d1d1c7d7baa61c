// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { QUIPU_STABLE_DEX4FACTORY } from './types';

/** quipuswap stable dex4factory: the decoded storage. */
export type QuipuStableDex4factoryStorage = {
  storage: {
    admin: string;
    default_referral: string;
    managers: Array<string>;
    pools_count: bigint;
    tokens: BigMap<bigint, Map<bigint, { fa12: string } | { fa2: { token_address: string; token_id: bigint } }>>;
    pool_to_id: BigMap<string, bigint>;
    pools: BigMap<
      bigint,
      {
        initial_A_f: bigint;
        initial_A_time: Date | string;
        future_A_f: bigint;
        future_A_time: Date | string;
        tokens_info: Map<bigint, { rate_f: bigint; precision_multiplier_f: bigint; reserves: bigint }>;
        fee: { lp_f: bigint; stakers_f: bigint; ref_f: bigint };
        staker_accumulator: {
          accumulator_f: Map<bigint, bigint>;
          total_fees: Map<bigint, bigint>;
          total_staked: bigint;
        };
        total_supply: bigint;
      }
    >;
    ledger: BigMap<{ '0': string; '1': bigint }, bigint>;
    allowances: BigMap<{ '0': string; '1': bigint }, Array<string>>;
    token_metadata: BigMap<bigint, { token_id: bigint; token_info: Map<string, string> }>;
    dev_rewards: BigMap<{ fa12: string } | { fa2: { token_address: string; token_id: bigint } }, bigint>;
    referral_rewards: BigMap<
      { '0': string; '1': { fa12: string } | { fa2: { token_address: string; token_id: bigint } } },
      bigint
    >;
    stakers_balance: BigMap<
      { '0': string; '1': bigint },
      { balance: bigint; earnings: Map<bigint, { reward_f: bigint; former_f: bigint }> }
    >;
    quipu_token: { token_address: string; token_id: bigint };
    factory_address: string;
    started: boolean;
  };
  metadata: BigMap<string, string>;
  admin_lambdas: BigMap<bigint, string>;
  dex_lambdas: BigMap<bigint, string>;
  token_lambdas: BigMap<bigint, string>;
};

/** quipuswap stable dex4factory: each entrypoint's decoded argument. */
export interface QuipuStableDex4factoryParameters {
  factory_action: { copy_dex_function: BigMap<bigint, string> } | { freeze: null };
  copy_dex_function: BigMap<bigint, string>;
  freeze: null;
  use_admin:
    | { add_rem_managers: { add: boolean; candidate: string } }
    | {
        claim_developer: {
          token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } };
          amount: bigint;
        };
      }
    | { ramp_A: { pool_id: bigint; future_A: bigint; future_time: Date | string } }
    | { set_admin: string }
    | { set_default_referral: string }
    | { set_fees: { pool_id: bigint; fee: { lp_f: bigint; stakers_f: bigint; ref_f: bigint } } }
    | { stop_ramp_A: bigint };
  add_rem_managers: { add: boolean; candidate: string };
  claim_developer: { token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } }; amount: bigint };
  ramp_A: { pool_id: bigint; future_A: bigint; future_time: Date | string };
  set_admin: string;
  set_default_referral: string;
  set_fees: { pool_id: bigint; fee: { lp_f: bigint; stakers_f: bigint; ref_f: bigint } };
  stop_ramp_A: bigint;
  user_action:
    | {
        use_dex:
          | {
              claim_referral: {
                token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } };
                amount: bigint;
              };
            }
          | {
              divest: {
                pool_id: bigint;
                min_amounts_out: Map<bigint, bigint>;
                shares: bigint;
                deadline: Date | string;
                receiver: string | null;
              };
            }
          | {
              divest_imbalanced: {
                pool_id: bigint;
                amounts_out: Map<bigint, bigint>;
                max_shares: bigint;
                deadline: Date | string;
                receiver: string | null;
                referral: string | null;
              };
            }
          | {
              divest_one_coin: {
                pool_id: bigint;
                shares: bigint;
                token_index: bigint;
                min_amount_out: bigint;
                deadline: Date | string;
                receiver: string | null;
                referral: string | null;
              };
            }
          | {
              invest: {
                pool_id: bigint;
                shares: bigint;
                in_amounts: Map<bigint, bigint>;
                deadline: Date | string;
                receiver: string | null;
                referral: string | null;
              };
            }
          | { stake: { add: { pool_id: bigint; amount: bigint } } | { remove: { pool_id: bigint; amount: bigint } } }
          | {
              swap: {
                pool_id: bigint;
                idx_from: bigint;
                idx_to: bigint;
                amount: bigint;
                min_amount_out: bigint;
                deadline: Date | string;
                receiver: string | null;
                referral: string | null;
              };
            };
      }
    | {
        use_token:
          | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
          | { total_supply: { token_id: bigint; receiver: string } }
          | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
          | { update_metadata: { token_id: bigint; token_info: Map<string, string> } }
          | {
              update_operators: Array<
                | { add_operator: { owner: string; operator: string; token_id: bigint } }
                | { remove_operator: { owner: string; operator: string; token_id: bigint } }
              >;
            };
      };
  use_dex:
    | {
        claim_referral: {
          token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } };
          amount: bigint;
        };
      }
    | {
        divest: {
          pool_id: bigint;
          min_amounts_out: Map<bigint, bigint>;
          shares: bigint;
          deadline: Date | string;
          receiver: string | null;
        };
      }
    | {
        divest_imbalanced: {
          pool_id: bigint;
          amounts_out: Map<bigint, bigint>;
          max_shares: bigint;
          deadline: Date | string;
          receiver: string | null;
          referral: string | null;
        };
      }
    | {
        divest_one_coin: {
          pool_id: bigint;
          shares: bigint;
          token_index: bigint;
          min_amount_out: bigint;
          deadline: Date | string;
          receiver: string | null;
          referral: string | null;
        };
      }
    | {
        invest: {
          pool_id: bigint;
          shares: bigint;
          in_amounts: Map<bigint, bigint>;
          deadline: Date | string;
          receiver: string | null;
          referral: string | null;
        };
      }
    | { stake: { add: { pool_id: bigint; amount: bigint } } | { remove: { pool_id: bigint; amount: bigint } } }
    | {
        swap: {
          pool_id: bigint;
          idx_from: bigint;
          idx_to: bigint;
          amount: bigint;
          min_amount_out: bigint;
          deadline: Date | string;
          receiver: string | null;
          referral: string | null;
        };
      };
  claim_referral: { token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } }; amount: bigint };
  divest: {
    pool_id: bigint;
    min_amounts_out: Map<bigint, bigint>;
    shares: bigint;
    deadline: Date | string;
    receiver: string | null;
  };
  divest_imbalanced: {
    pool_id: bigint;
    amounts_out: Map<bigint, bigint>;
    max_shares: bigint;
    deadline: Date | string;
    receiver: string | null;
    referral: string | null;
  };
  divest_one_coin: {
    pool_id: bigint;
    shares: bigint;
    token_index: bigint;
    min_amount_out: bigint;
    deadline: Date | string;
    receiver: string | null;
    referral: string | null;
  };
  invest: {
    pool_id: bigint;
    shares: bigint;
    in_amounts: Map<bigint, bigint>;
    deadline: Date | string;
    receiver: string | null;
    referral: string | null;
  };
  stake: { add: { pool_id: bigint; amount: bigint } } | { remove: { pool_id: bigint; amount: bigint } };
  add: { pool_id: bigint; amount: bigint };
  remove: { pool_id: bigint; amount: bigint };
  swap: {
    pool_id: bigint;
    idx_from: bigint;
    idx_to: bigint;
    amount: bigint;
    min_amount_out: bigint;
    deadline: Date | string;
    receiver: string | null;
    referral: string | null;
  };
  use_token:
    | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
    | { total_supply: { token_id: bigint; receiver: string } }
    | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
    | { update_metadata: { token_id: bigint; token_info: Map<string, string> } }
    | {
        update_operators: Array<
          | { add_operator: { owner: string; operator: string; token_id: bigint } }
          | { remove_operator: { owner: string; operator: string; token_id: bigint } }
        >;
      };
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  total_supply: { token_id: bigint; receiver: string };
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_metadata: { token_id: bigint; token_info: Map<string, string> };
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  default:
    | { factory_action: { copy_dex_function: BigMap<bigint, string> } | { freeze: null } }
    | {
        use_admin:
          | { add_rem_managers: { add: boolean; candidate: string } }
          | {
              claim_developer: {
                token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } };
                amount: bigint;
              };
            }
          | { ramp_A: { pool_id: bigint; future_A: bigint; future_time: Date | string } }
          | { set_admin: string }
          | { set_default_referral: string }
          | { set_fees: { pool_id: bigint; fee: { lp_f: bigint; stakers_f: bigint; ref_f: bigint } } }
          | { stop_ramp_A: bigint };
      }
    | {
        user_action:
          | {
              use_dex:
                | {
                    claim_referral: {
                      token: { fa12: string } | { fa2: { token_address: string; token_id: bigint } };
                      amount: bigint;
                    };
                  }
                | {
                    divest: {
                      pool_id: bigint;
                      min_amounts_out: Map<bigint, bigint>;
                      shares: bigint;
                      deadline: Date | string;
                      receiver: string | null;
                    };
                  }
                | {
                    divest_imbalanced: {
                      pool_id: bigint;
                      amounts_out: Map<bigint, bigint>;
                      max_shares: bigint;
                      deadline: Date | string;
                      receiver: string | null;
                      referral: string | null;
                    };
                  }
                | {
                    divest_one_coin: {
                      pool_id: bigint;
                      shares: bigint;
                      token_index: bigint;
                      min_amount_out: bigint;
                      deadline: Date | string;
                      receiver: string | null;
                      referral: string | null;
                    };
                  }
                | {
                    invest: {
                      pool_id: bigint;
                      shares: bigint;
                      in_amounts: Map<bigint, bigint>;
                      deadline: Date | string;
                      receiver: string | null;
                      referral: string | null;
                    };
                  }
                | {
                    stake:
                      { add: { pool_id: bigint; amount: bigint } } | { remove: { pool_id: bigint; amount: bigint } };
                  }
                | {
                    swap: {
                      pool_id: bigint;
                      idx_from: bigint;
                      idx_to: bigint;
                      amount: bigint;
                      min_amount_out: bigint;
                      deadline: Date | string;
                      receiver: string | null;
                      referral: string | null;
                    };
                  };
            }
          | {
              use_token:
                | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
                | { total_supply: { token_id: bigint; receiver: string } }
                | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
                | { update_metadata: { token_id: bigint; token_info: Map<string, string> } }
                | {
                    update_operators: Array<
                      | { add_operator: { owner: string; operator: string; token_id: bigint } }
                      | { remove_operator: { owner: string; operator: string; token_id: bigint } }
                    >;
                  };
            };
      };
}

export const quipuStableDex4factoryCode = new TypedCode<
  QuipuStableDex4factoryStorage,
  QuipuStableDex4factoryParameters
>(QUIPU_STABLE_DEX4FACTORY.types);
