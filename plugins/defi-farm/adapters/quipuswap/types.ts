import { Parser } from '@taquito/michel-codec';
import { ContractTypes, type KnownCode } from '../../../../framework';

/*
 * Why: a QuipuSwap farms contract met first in an archive or after a mid-chain start has no types at hand (no
 * node, no origination seen); with these it is recognized at its first call and decoded (framework `KnownCode`).
 * No compiled QFarm/TFarm of this generation was found (the repository commits only the 2021 design's
 * test/unit_tests/contracts/q_farm.tz and t_farm.tz, whose farms keep users in a map and votes in the farm), so
 * these are DERIVED BY HAND from the PascaLIGO source, madfish-solutions/quipuswap-farming at
 * 081510c4aadd7063c0b28e8241ce746252867057 (2022-08-23, the farms for QuipuSwap v2 LPs): `contracts/partial/
 * farm/q_farm/i_q_farm.ligo` and `farm/t_farm/i_t_farm.ligo` (fees_type, farm_type, storage_type, action_type,
 * full_storage_type, full_action_type and their records), `farm/i_common.ligo` (user_info_type,
 * stake_params_type, deposit_type, withdraw_type, harvest_type and the admin records), `partial/i_common.ligo`
 * (token_type, fa2_type), `lib/i_fa2.ligo` (transfer, balance_of, update_operators). LIGO's layouts:
 * `[@layout:comb]` records are right combs in declaration order; variants sort their constructors by name,
 * lower-case the first letter for the annotation and pair neighbours level by level (as the same repository's
 * compiled q_farm.tz lays out its 18-constructor `use`, and as QuipuSwap v2's derived DexCore types, checked
 * against mainnet calls, do). No code hash: no script is at hand. No mainnet call of either was found.
 */
/** `farms` values: QFarm's `farm_type` (i_q_farm.ligo) and TFarm's (i_t_farm.ligo). */
const Q_FARM = `
  (pair (pair %fees (nat %harvest_fee) (nat %withdrawal_fee) (nat %burn_reward)) (timestamp %upd) (pair
  %stake_params (or %staked_token (address %fA12) (pair %fA2 (address %token) (nat %id))) (bool %is_v2_lp)) (pair
  %reward_token (address %token) (nat %id)) (nat %timelock) (key_hash %current_delegated) (key_hash
  %next_candidate) (bool %paused) (nat %reward_per_second) (nat %reward_per_share) (nat %staked) (nat %claimed)
  (timestamp %start_time) (nat %fid))`;
const T_FARM = `
  (pair (pair %fees (nat %harvest_fee) (nat %withdrawal_fee)) (timestamp %upd) (pair %stake_params (or
  %staked_token (address %fA12) (pair %fA2 (address %token) (nat %id))) (bool %is_v2_lp)) (or %reward_token
  (address %fA12) (pair %fA2 (address %token) (nat %id))) (nat %timelock) (key_hash %current_delegated) (key_hash
  %next_candidate) (bool %paused) (nat %reward_per_second) (nat %reward_per_share) (nat %staked) (nat %claimed)
  (timestamp %start_time) (timestamp %end_time) (nat %fid))`;
/** `users_info` keys `(fid, user)` (unannotated on chain) and values, `user_info_type` (farm/i_common.ligo). */
const USER_KEY = '(pair nat address)';
const USER_INFO = `
  (pair (timestamp %last_staked) (nat %staked) (nat %earned) (nat %claimed) (nat %prev_earned) (nat %prev_staked)
  (set %allowances address))`;

const Q_PARAMETER = `
  (or (or (unit %default) (pair %setup_func (nat %index) (bytes %func))) (or %use (or (or (or (or (pair %add_new_farm
  (pair %fees (nat %harvest_fee) (nat %withdrawal_fee) (nat %burn_reward)) (pair %stake_params (or %staked_token
  (address %fA12) (pair %fA2 (address %token) (nat %id))) (bool %is_v2_lp)) (map %token_info string bytes) (bool
  %paused) (nat %reward_per_second) (nat %timelock) (timestamp %start_time)) (pair %balance_of (list %requests (pair
  (address %owner) (nat %token_id))) (contract %callback (list (pair (pair %request (address %owner) (nat %token_id))
  (nat %balance)))))) (or (list %ban_bakers (pair (key_hash %baker) (nat %period))) (nat %burn_farm_rewards))) (or (or
  (nat %burn_tez_rewards) (unit %confirm_admin)) (or (pair %deposit (nat %fid) (nat %amt) (option %referrer address)
  (address %rewards_receiver) (option %candidate key_hash)) (pair %harvest (nat %fid) (address %rewards_receiver)))))
  (or (or (or (list %pause_farms (pair (nat %fid) (bool %pause))) (address %set_admin)) (or (address
  %set_baker_registry) (address %set_burner))) (or (or (list %set_fees (pair (nat %fid) (pair %fees (nat %harvest_fee)
  (nat %withdrawal_fee) (nat %burn_reward)))) (pair %set_is_v2_lp (nat %fid) (bool %is_v2_lp))) (or (address
  %set_proxy_minter) (list %set_reward_per_second (pair (nat %fid) (nat %reward_per_second))))))) (or (or (or (list
  %transfer (pair (address %from_) (list %txs (pair (address %to_) (nat %token_id) (nat %amount))))) (list
  %update_operators (or (pair %add_operator (address %owner) (address %operator) (nat %token_id)) (pair
  %remove_operator (address %owner) (address %operator) (nat %token_id))))) (or (pair %update_token_metadata (nat
  %token_id) (list %token_info (pair (string %key) (bytes %value)))) (pair %withdraw (nat %fid) (nat %amt) (address
  %receiver) (address %rewards_receiver)))) (pair %withdraw_farm_depo (nat %fid) (nat %amt)))))`;

const Q_STORAGE = `
  (pair (pair %storage (big_map %farms nat ${Q_FARM}) (big_map %referrers address address) (big_map %users_info
  ${USER_KEY} ${USER_INFO}) (big_map %votes (pair nat key_hash) nat) (big_map %candidates (pair nat address)
  key_hash) (big_map %banned_bakers key_hash (pair (nat %period) (timestamp %start))) (big_map %token_metadata nat
  (pair (nat %token_id) (map %token_info string bytes))) (pair %qsgov (address %token) (nat %id)) (address
  %qsgov_lp) (address %admin) (address %pending_admin) (address %burner) (address %proxy_minter) (address
  %baker_registry) (nat %farms_count)) (big_map %q_farm_lambdas nat bytes) (big_map %metadata string bytes))`;

const T_PARAMETER = `
  (or (or (unit %default) (pair %setup_func (nat %index) (bytes %func))) (or %use (or (or (or (or (pair %add_new_farm
  (pair %fees (nat %harvest_fee) (nat %withdrawal_fee)) (pair %stake_params (or %staked_token (address %fA12) (pair
  %fA2 (address %token) (nat %id))) (bool %is_v2_lp)) (map %token_info string bytes) (or %reward_token (address %fA12)
  (pair %fA2 (address %token) (nat %id))) (bool %paused) (nat %timelock) (timestamp %start_time) (timestamp %end_time)
  (nat %reward_per_second)) (pair %balance_of (list %requests (pair (address %owner) (nat %token_id))) (contract
  %callback (list (pair (pair %request (address %owner) (nat %token_id)) (nat %balance)))))) (or (list %ban_bakers
  (pair (key_hash %baker) (nat %period))) (nat %burn_tez_rewards))) (or (or (nat %claim_farm_rewards) (unit
  %confirm_admin)) (or (pair %deposit (nat %fid) (nat %amt) (option %referrer address) (address %rewards_receiver)
  (option %candidate key_hash)) (pair %harvest (nat %fid) (address %rewards_receiver))))) (or (or (or (list
  %pause_farms (pair (nat %fid) (bool %pause))) (address %set_admin)) (or (address %set_baker_registry) (address
  %set_burner))) (or (or (list %set_fees (pair (nat %fid) (pair %fees (nat %harvest_fee) (nat %withdrawal_fee))))
  (pair %set_is_v2_lp (nat %fid) (bool %is_v2_lp))) (or (pair %set_reward_per_second (nat %fid) (nat
  %reward_per_second)) (list %transfer (pair (address %from_) (list %txs (pair (address %to_) (nat %token_id) (nat
  %amount))))))))) (or (or (list %update_operators (or (pair %add_operator (address %owner) (address %operator) (nat
  %token_id)) (pair %remove_operator (address %owner) (address %operator) (nat %token_id)))) (pair
  %update_token_metadata (nat %token_id) (list %token_info (pair (string %key) (bytes %value))))) (or (pair %withdraw
  (nat %fid) (nat %amt) (address %receiver) (address %rewards_receiver)) (pair %withdraw_farm_depo (nat %fid) (nat
  %amt))))))`;

const T_STORAGE = `
  (pair (pair %storage (big_map %farms nat ${T_FARM}) (big_map %referrers address address) (big_map %users_info
  ${USER_KEY} ${USER_INFO}) (big_map %votes (pair nat key_hash) nat) (big_map %candidates (pair nat address)
  key_hash) (big_map %banned_bakers key_hash (pair (nat %period) (timestamp %start))) (big_map %token_metadata nat
  (pair (nat %token_id) (map %token_info string bytes))) (pair %qsgov (address %token) (nat %id)) (address
  %qsgov_lp) (address %admin) (address %pending_admin) (address %burner) (address %baker_registry) (nat
  %farms_count)) (big_map %t_farm_lambdas nat bytes) (big_map %metadata string bytes))`;

const parse = (text: string): unknown => JSON.parse(JSON.stringify(new Parser().parseMichelineExpression(text)));
const types = (parameter: string, storage: string): ContractTypes =>
  ContractTypes.fromJSON({ parameter: parse(parameter), storage: parse(storage), codeHash: null });

/** The value types of the big map entries a call writes, and of a farm id (`farms` key). */
export const QFARM_ENTRY = parse(Q_FARM);
export const TFARM_ENTRY = parse(T_FARM);
export const USERS_INFO_KEY = parse(USER_KEY);
export const USERS_INFO_ENTRY = parse(USER_INFO);
export const NAT = { prim: 'nat' };
/** The argument of the `mint_tokens` call by which QFarm has its proxy minter mint QUIPU: `list {receiver, amount}`. */
export const MINT_TOKENS = parse('(list (pair (address %receiver) (nat %amount)))');

/** The calls that tell a farms contract (not `deposit`/`withdraw`: too many other contracts have them). */
const SIGNATURE = ['harvest', 'withdraw_farm_depo'];

/** QFarm: QUIPU minted through the proxy minter as reward, a burn reward fee, no end time. */
export const QUIPU_QFARM: KnownCode = {
  name: 'quipuswap qfarm',
  types: types(Q_PARAMETER, Q_STORAGE),
  codeHashes: [],
  signature: [...SIGNATURE, 'burn_farm_rewards'],
};

/** TFarm: any funded reward token, an end time. */
export const QUIPU_TFARM: KnownCode = {
  name: 'quipuswap tfarm',
  types: types(T_PARAMETER, T_STORAGE),
  codeHashes: [],
  signature: [...SIGNATURE, 'claim_farm_rewards'],
};
