import { knownCode } from '../knownCode';

/*
 * Why: the real types of the QuipuSwap StableSwap dex the factory deploys (dex4factory), so a dex is read
 * with no node (`../knownCode.ts`). Source: madfish-solutions/quipuswap-stable-core
 * `contracts/compiled/dex4factory.tz` at a3e3499de6d3e0bb504b78d8f3130b5ab8ca0aa4 (last changed in cd4c696,
 * 2022-06-20; the same layout as the sandbox's mainnet model, `StableDex.ts`). A repository build, not a
 * mainnet script: no code hash is listed. The standalone dex (`dex.tz`) has other types, not at hand.
 */
const DEX4FACTORY = {
  parameter: `
  (or (or (or %factory_action (big_map %copy_dex_function nat bytes) (unit %freeze)) (or %use_admin (or (or (pair
  %add_rem_managers (bool %add) (address %candidate)) (pair %claim_developer (or %token (address %fa12) (pair %fa2
  (address %token_address) (nat %token_id))) (nat %amount))) (or (pair %ramp_A (nat %pool_id) (nat %future_A)
  (timestamp %future_time)) (address %set_admin))) (or (or (address %set_default_referral) (pair %set_fees (nat
  %pool_id) (pair %fee (nat %lp_f) (nat %stakers_f) (nat %ref_f)))) (nat %stop_ramp_A)))) (or %user_action (or
  %use_dex (or (or (pair %claim_referral (or %token (address %fa12) (pair %fa2 (address %token_address) (nat
  %token_id))) (nat %amount)) (pair %divest (nat %pool_id) (map %min_amounts_out nat nat) (nat %shares) (timestamp
  %deadline) (option %receiver address))) (or (pair %divest_imbalanced (nat %pool_id) (map %amounts_out nat nat)
  (nat %max_shares) (timestamp %deadline) (option %receiver address) (option %referral address)) (pair
  %divest_one_coin (nat %pool_id) (nat %shares) (nat %token_index) (nat %min_amount_out) (timestamp %deadline)
  (option %receiver address) (option %referral address)))) (or (or (pair %invest (nat %pool_id) (nat %shares) (map
  %in_amounts nat nat) (timestamp %deadline) (option %receiver address) (option %referral address)) (or %stake
  (pair %add (nat %pool_id) (nat %amount)) (pair %remove (nat %pool_id) (nat %amount)))) (pair %swap (nat
  %pool_id) (nat %idx_from) (nat %idx_to) (nat %amount) (nat %min_amount_out) (timestamp %deadline) (option
  %receiver address) (option %referral address)))) (or %use_token (or (or (pair %balance_of (list %requests (pair
  (address %owner) (nat %token_id))) (contract %callback (list (pair (pair %request (address %owner) (nat
  %token_id)) (nat %balance))))) (pair %total_supply (nat %token_id) (contract %receiver nat))) (or (list
  %transfer (pair (address %from_) (list %txs (pair (address %to_) (nat %token_id) (nat %amount))))) (pair
  %update_metadata (nat %token_id) (map %token_info string bytes)))) (list %update_operators (or (pair
  %add_operator (address %owner) (address %operator) (nat %token_id)) (pair %remove_operator (address %owner)
  (address %operator) (nat %token_id)))))))`,
  storage: `
  (pair (pair %storage (address %admin) (address %default_referral) (set %managers address) (nat %pools_count)
  (big_map %tokens nat (map nat (or (address %fa12) (pair %fa2 (address %token_address) (nat %token_id)))))
  (big_map %pool_to_id bytes nat) (big_map %pools nat (pair (nat %initial_A_f) (timestamp %initial_A_time) (nat
  %future_A_f) (timestamp %future_A_time) (map %tokens_info nat (pair (nat %rate_f) (nat %precision_multiplier_f)
  (nat %reserves))) (pair %fee (nat %lp_f) (nat %stakers_f) (nat %ref_f)) (pair %staker_accumulator (map
  %accumulator_f nat nat) (map %total_fees nat nat) (nat %total_staked)) (nat %total_supply))) (big_map %ledger
  (pair address nat) nat) (big_map %allowances (pair address nat) (set address)) (big_map %token_metadata nat
  (pair (nat %token_id) (map %token_info string bytes))) (big_map %dev_rewards (or (address %fa12) (pair %fa2
  (address %token_address) (nat %token_id))) nat) (big_map %referral_rewards (pair address (or (address %fa12)
  (pair %fa2 (address %token_address) (nat %token_id)))) nat) (big_map %stakers_balance (pair address nat) (pair
  (nat %balance) (map %earnings nat (pair (nat %reward_f) (nat %former_f))))) (pair %quipu_token (address
  %token_address) (nat %token_id)) (address %factory_address) (bool %started)) (big_map %metadata string bytes)
  (big_map %admin_lambdas nat bytes) (big_map %dex_lambdas nat bytes) (big_map %token_lambdas nat bytes))`,
};

/** The dex's own entrypoints (`stake` is an `or` of `add`/`remove`, listed by its leaves). */
export const STABLE_SIGNATURE = ['swap', 'invest', 'divest', 'divest_imbalanced', 'divest_one_coin', 'claim_referral'];

export const QUIPU_STABLE_DEX4FACTORY = knownCode('quipuswap stable dex4factory', DEX4FACTORY, [], STABLE_SIGNATURE);
