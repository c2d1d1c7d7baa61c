// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode, TypedValue } from '../../../../framework';
import {
  MINT_TOKENS,
  NAT,
  QFARM_ENTRY,
  QUIPU_QFARM,
  QUIPU_TFARM,
  TFARM_ENTRY,
  USERS_INFO_ENTRY,
  USERS_INFO_KEY,
} from './types';

/** The decoded MINT_TOKENS. */
export type MintTokens = Array<{ receiver: string; amount: bigint }>;

export const mintTokensType = new TypedValue<MintTokens>(MINT_TOKENS);

/** The decoded NAT. */
export type Nat = bigint;

export const natType = new TypedValue<Nat>(NAT);

/** The decoded QFARM_ENTRY. */
export type QfarmEntry = {
  fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint };
  upd: Date | string;
  stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
  reward_token: { token: string; id: bigint };
  timelock: bigint;
  current_delegated: string;
  next_candidate: string;
  paused: boolean;
  reward_per_second: bigint;
  reward_per_share: bigint;
  staked: bigint;
  claimed: bigint;
  start_time: Date | string;
  fid: bigint;
};

export const qfarmEntryType = new TypedValue<QfarmEntry>(QFARM_ENTRY);

/** quipuswap qfarm: the decoded storage. */
export type QuipuQfarmStorage = {
  storage: {
    farms: BigMap<
      bigint,
      {
        fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint };
        upd: Date | string;
        stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
        reward_token: { token: string; id: bigint };
        timelock: bigint;
        current_delegated: string;
        next_candidate: string;
        paused: boolean;
        reward_per_second: bigint;
        reward_per_share: bigint;
        staked: bigint;
        claimed: bigint;
        start_time: Date | string;
        fid: bigint;
      }
    >;
    referrers: BigMap<string, string>;
    users_info: BigMap<
      { '0': bigint; '1': string },
      {
        last_staked: Date | string;
        staked: bigint;
        earned: bigint;
        claimed: bigint;
        prev_earned: bigint;
        prev_staked: bigint;
        allowances: Array<string>;
      }
    >;
    votes: BigMap<{ '0': bigint; '1': string }, bigint>;
    candidates: BigMap<{ '0': bigint; '1': string }, string>;
    banned_bakers: BigMap<string, { period: bigint; start: Date | string }>;
    token_metadata: BigMap<bigint, { token_id: bigint; token_info: Map<string, string> }>;
    qsgov: { token: string; id: bigint };
    qsgov_lp: string;
    admin: string;
    pending_admin: string;
    burner: string;
    proxy_minter: string;
    baker_registry: string;
    farms_count: bigint;
  };
  q_farm_lambdas: BigMap<bigint, string>;
  metadata: BigMap<string, string>;
};

/** quipuswap qfarm: each entrypoint's decoded argument. */
export interface QuipuQfarmParameters {
  default: null;
  setup_func: { index: bigint; func: string };
  use:
    | {
        add_new_farm: {
          fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint };
          stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
          token_info: Map<string, string>;
          paused: boolean;
          reward_per_second: bigint;
          timelock: bigint;
          start_time: Date | string;
        };
      }
    | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
    | { ban_bakers: Array<{ baker: string; period: bigint }> }
    | { burn_farm_rewards: bigint }
    | { burn_tez_rewards: bigint }
    | { confirm_admin: null }
    | {
        deposit: {
          fid: bigint;
          amt: bigint;
          referrer: string | null;
          rewards_receiver: string;
          candidate: string | null;
        };
      }
    | { harvest: { fid: bigint; rewards_receiver: string } }
    | { pause_farms: Array<{ fid: bigint; pause: boolean }> }
    | { set_admin: string }
    | { set_baker_registry: string }
    | { set_burner: string }
    | { set_fees: Array<{ fid: bigint; fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint } }> }
    | { set_is_v2_lp: { fid: bigint; is_v2_lp: boolean } }
    | { set_proxy_minter: string }
    | { set_reward_per_second: Array<{ fid: bigint; reward_per_second: bigint }> }
    | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
    | {
        update_operators: Array<
          | { add_operator: { owner: string; operator: string; token_id: bigint } }
          | { remove_operator: { owner: string; operator: string; token_id: bigint } }
        >;
      }
    | { update_token_metadata: { token_id: bigint; token_info: Array<{ key: string; value: string }> } }
    | { withdraw: { fid: bigint; amt: bigint; receiver: string; rewards_receiver: string } }
    | { withdraw_farm_depo: { fid: bigint; amt: bigint } };
  add_new_farm: {
    fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint };
    stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
    token_info: Map<string, string>;
    paused: boolean;
    reward_per_second: bigint;
    timelock: bigint;
    start_time: Date | string;
  };
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  ban_bakers: Array<{ baker: string; period: bigint }>;
  burn_farm_rewards: bigint;
  burn_tez_rewards: bigint;
  confirm_admin: null;
  deposit: { fid: bigint; amt: bigint; referrer: string | null; rewards_receiver: string; candidate: string | null };
  harvest: { fid: bigint; rewards_receiver: string };
  pause_farms: Array<{ fid: bigint; pause: boolean }>;
  set_admin: string;
  set_baker_registry: string;
  set_burner: string;
  set_fees: Array<{ fid: bigint; fees: { harvest_fee: bigint; withdrawal_fee: bigint; burn_reward: bigint } }>;
  set_is_v2_lp: { fid: bigint; is_v2_lp: boolean };
  set_proxy_minter: string;
  set_reward_per_second: Array<{ fid: bigint; reward_per_second: bigint }>;
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  update_token_metadata: { token_id: bigint; token_info: Array<{ key: string; value: string }> };
  withdraw: { fid: bigint; amt: bigint; receiver: string; rewards_receiver: string };
  withdraw_farm_depo: { fid: bigint; amt: bigint };
}

export const quipuQfarmCode = new TypedCode<QuipuQfarmStorage, QuipuQfarmParameters>(QUIPU_QFARM.types);

/** quipuswap tfarm: the decoded storage. */
export type QuipuTfarmStorage = {
  storage: {
    farms: BigMap<
      bigint,
      {
        fees: { harvest_fee: bigint; withdrawal_fee: bigint };
        upd: Date | string;
        stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
        reward_token: { fA12: string } | { fA2: { token: string; id: bigint } };
        timelock: bigint;
        current_delegated: string;
        next_candidate: string;
        paused: boolean;
        reward_per_second: bigint;
        reward_per_share: bigint;
        staked: bigint;
        claimed: bigint;
        start_time: Date | string;
        end_time: Date | string;
        fid: bigint;
      }
    >;
    referrers: BigMap<string, string>;
    users_info: BigMap<
      { '0': bigint; '1': string },
      {
        last_staked: Date | string;
        staked: bigint;
        earned: bigint;
        claimed: bigint;
        prev_earned: bigint;
        prev_staked: bigint;
        allowances: Array<string>;
      }
    >;
    votes: BigMap<{ '0': bigint; '1': string }, bigint>;
    candidates: BigMap<{ '0': bigint; '1': string }, string>;
    banned_bakers: BigMap<string, { period: bigint; start: Date | string }>;
    token_metadata: BigMap<bigint, { token_id: bigint; token_info: Map<string, string> }>;
    qsgov: { token: string; id: bigint };
    qsgov_lp: string;
    admin: string;
    pending_admin: string;
    burner: string;
    baker_registry: string;
    farms_count: bigint;
  };
  t_farm_lambdas: BigMap<bigint, string>;
  metadata: BigMap<string, string>;
};

/** quipuswap tfarm: each entrypoint's decoded argument. */
export interface QuipuTfarmParameters {
  default: null;
  setup_func: { index: bigint; func: string };
  use:
    | {
        add_new_farm: {
          fees: { harvest_fee: bigint; withdrawal_fee: bigint };
          stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
          token_info: Map<string, string>;
          reward_token: { fA12: string } | { fA2: { token: string; id: bigint } };
          paused: boolean;
          timelock: bigint;
          start_time: Date | string;
          end_time: Date | string;
          reward_per_second: bigint;
        };
      }
    | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
    | { ban_bakers: Array<{ baker: string; period: bigint }> }
    | { burn_tez_rewards: bigint }
    | { claim_farm_rewards: bigint }
    | { confirm_admin: null }
    | {
        deposit: {
          fid: bigint;
          amt: bigint;
          referrer: string | null;
          rewards_receiver: string;
          candidate: string | null;
        };
      }
    | { harvest: { fid: bigint; rewards_receiver: string } }
    | { pause_farms: Array<{ fid: bigint; pause: boolean }> }
    | { set_admin: string }
    | { set_baker_registry: string }
    | { set_burner: string }
    | { set_fees: Array<{ fid: bigint; fees: { harvest_fee: bigint; withdrawal_fee: bigint } }> }
    | { set_is_v2_lp: { fid: bigint; is_v2_lp: boolean } }
    | { set_reward_per_second: { fid: bigint; reward_per_second: bigint } }
    | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
    | {
        update_operators: Array<
          | { add_operator: { owner: string; operator: string; token_id: bigint } }
          | { remove_operator: { owner: string; operator: string; token_id: bigint } }
        >;
      }
    | { update_token_metadata: { token_id: bigint; token_info: Array<{ key: string; value: string }> } }
    | { withdraw: { fid: bigint; amt: bigint; receiver: string; rewards_receiver: string } }
    | { withdraw_farm_depo: { fid: bigint; amt: bigint } };
  add_new_farm: {
    fees: { harvest_fee: bigint; withdrawal_fee: bigint };
    stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
    token_info: Map<string, string>;
    reward_token: { fA12: string } | { fA2: { token: string; id: bigint } };
    paused: boolean;
    timelock: bigint;
    start_time: Date | string;
    end_time: Date | string;
    reward_per_second: bigint;
  };
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  ban_bakers: Array<{ baker: string; period: bigint }>;
  burn_tez_rewards: bigint;
  claim_farm_rewards: bigint;
  confirm_admin: null;
  deposit: { fid: bigint; amt: bigint; referrer: string | null; rewards_receiver: string; candidate: string | null };
  harvest: { fid: bigint; rewards_receiver: string };
  pause_farms: Array<{ fid: bigint; pause: boolean }>;
  set_admin: string;
  set_baker_registry: string;
  set_burner: string;
  set_fees: Array<{ fid: bigint; fees: { harvest_fee: bigint; withdrawal_fee: bigint } }>;
  set_is_v2_lp: { fid: bigint; is_v2_lp: boolean };
  set_reward_per_second: { fid: bigint; reward_per_second: bigint };
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  update_token_metadata: { token_id: bigint; token_info: Array<{ key: string; value: string }> };
  withdraw: { fid: bigint; amt: bigint; receiver: string; rewards_receiver: string };
  withdraw_farm_depo: { fid: bigint; amt: bigint };
}

export const quipuTfarmCode = new TypedCode<QuipuTfarmStorage, QuipuTfarmParameters>(QUIPU_TFARM.types);

/** The decoded TFARM_ENTRY. */
export type TfarmEntry = {
  fees: { harvest_fee: bigint; withdrawal_fee: bigint };
  upd: Date | string;
  stake_params: { staked_token: { fA12: string } | { fA2: { token: string; id: bigint } }; is_v2_lp: boolean };
  reward_token: { fA12: string } | { fA2: { token: string; id: bigint } };
  timelock: bigint;
  current_delegated: string;
  next_candidate: string;
  paused: boolean;
  reward_per_second: bigint;
  reward_per_share: bigint;
  staked: bigint;
  claimed: bigint;
  start_time: Date | string;
  end_time: Date | string;
  fid: bigint;
};

export const tfarmEntryType = new TypedValue<TfarmEntry>(TFARM_ENTRY);

/** The decoded USERS_INFO_ENTRY. */
export type UsersInfoEntry = {
  last_staked: Date | string;
  staked: bigint;
  earned: bigint;
  claimed: bigint;
  prev_earned: bigint;
  prev_staked: bigint;
  allowances: Array<string>;
};

export const usersInfoEntryType = new TypedValue<UsersInfoEntry>(USERS_INFO_ENTRY);

/** The decoded USERS_INFO_KEY. */
export type UsersInfoKey = { '0': bigint; '1': string };

export const usersInfoKeyType = new TypedValue<UsersInfoKey>(USERS_INFO_KEY);
