import { knownCode, type TypeExpr } from '../knownCode';

/*
 * Why: DexCore's real types, so QuipuSwap v2 is read with no node (`../knownCode.ts`). No compiled DexCore
 * script was found (the repository commits only the bucket's build), so these are DERIVED BY HAND from the
 * PascaLIGO source, madfish-solutions/quipuswap-core-v2 at 684f17d42293034764fd2ff70ce1075b912406da
 * (2022-10-07, MIT): `contracts/partial/dex_core/dex_core_types.ligo` (storage_t, full_storage_t, action_t,
 * full_action_t and their records), `common_types.ligo` (token_t, pair_t), `dex_core/fa2/fa2_types.ligo`,
 * `dex_core/permits/permits_types.ligo`, `bucket/bucket_types.ligo` (vote_t, ban_baker_t). LIGO's layouts:
 * `[@layout:comb]` records are right combs in declaration order; variants (tree layout) sort their
 * constructors by name and pair neighbours level by level (the layout of the same project's compiled
 * `contracts/compiled/bucket.tz` and of quipuswap-stable-core's `dex4factory.tz`). Checked against the
 * mainnet contract KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43's recorded storage and `swap`/`close` calls
 * (Temple recordings, test/defi-dex/adapters/knownCode.test.ts); the other entrypoints' leaves rest on the
 * source only. No code hash: no script is at hand.
 */
const PARAMETER = `
  (or (or (unit %default) (pair %setup_func (nat %idx) (bytes %func_bytes))) (or %use (or (or (or (or (list
  %add_managers (pair (address %manager) (bool %add))) (pair %balance_of (list %requests (pair (address %owner)
  (nat %token_id))) (contract %callback (list (pair (pair %request (address %owner) (nat %token_id)) (nat
  %balance)))))) (or (pair %ban (nat %pair_id) (pair %ban_params (key_hash %baker) (nat %ban_period))) (pair
  %claim (nat %pair_id) (address %receiver) (option %referral_code nat)))) (or (or (pair %claim_interface_fee
  (or %token (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit %tez)) (address %receiver)
  (option %referral_code nat)) (pair %claim_interface_tez_fee (nat %pair_id) (address %receiver) (option
  %referral_code nat))) (or (unit %close) (unit %confirm_admin)))) (or (or (or (pair %divest_liquidity (nat
  %pair_id) (nat %min_token_a_out) (nat %min_token_b_out) (nat %shares) (address %liquidity_receiver) (key_hash
  %candidate) (timestamp %deadline) (option %referral_code nat)) (pair %flash_swap_callback (nat %pair_id) (nat
  %prev_tez_balance) (nat %amount_in))) (or (pair %invest_liquidity (nat %pair_id) (nat %token_a_in) (nat
  %token_b_in) (nat %shares) (address %shares_receiver) (key_hash %candidate) (timestamp %deadline) (option
  %referral_code nat)) (pair %launch_callback (pair %vote_params (address %voter) (key_hash %candidate) (bool
  %execute_voting) (nat %votes)) (address %bucket)))) (or (or (pair %launch_exchange (pair %pair (or %token_a
  (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit %tez)) (or %token_b (or (address %fa12)
  (pair %fa2 (address %token) (nat %id))) (unit %tez))) (nat %token_a_in) (nat %token_b_in) (address
  %shares_receiver) (key_hash %candidate) (timestamp %deadline) (option %referral_code nat)) (list %permit (pair
  key (pair signature (bytes %permit_hash))))) (or (address %set_admin) (address %set_auction))))) (or (or (or
  (or (nat %set_baker_rate) (nat %set_collecting_period)) (or (pair %set_expiry (address %issuer) (nat %expiry)
  (option %permit_hash bytes)) (pair %set_fees (nat %interface_fee) (nat %swap_fee) (nat %auction_fee) (nat
  %withdraw_fee_reward)))) (or (or (address %set_flash_swaps_proxy) (pair %swap (option %lambda (lambda unit
  (list operation))) (list %swaps (pair (or %direction (unit %a_to_b) (unit %b_to_a)) (nat %pair_id)))
  (timestamp %deadline) (address %receiver) (address %referrer) (nat %amount_in) (nat %min_amount_out) (option
  %referral_code nat))) (or (list %transfer (pair (address %from_) (list %txs (pair (address %to_) (nat
  %token_id) (nat %amount))))) (list %update_operators (or (pair %add_operator (address %owner) (address
  %operator) (nat %token_id)) (pair %remove_operator (address %owner) (address %operator) (nat %token_id)))))))
  (or (or (pair %update_token_metadata (nat %token_id) (map %token_info string bytes)) (pair %vote (nat
  %pair_id) (key_hash %candidate) (option %referral_code nat))) (or (pair %withdraw_auction_fee (option %pair_id
  nat) (or %token (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit %tez)) (option
  %referral_code nat)) (pair %withdraw_profit (contract %receiver unit) (nat %pair_id) (option %referral_code
  nat)))))))`;
const STORAGE = `
  (pair (pair %storage (big_map %token_metadata nat (pair (nat %token_id) (map %token_info string bytes)))
  (big_map %ledger (pair address nat) nat) (big_map %accounts (pair address nat) (set %allowances address))
  (big_map %tokens nat (pair (or %token_a (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit
  %tez)) (or %token_b (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit %tez)))) (big_map
  %token_to_id bytes nat) (big_map %pairs nat (pair (nat %token_a_pool) (nat %token_b_pool) (nat
  %token_a_price_cml) (nat %token_b_price_cml) (nat %total_supply) (timestamp %last_block_timestamp) (option
  %bucket address))) (big_map %permits address (pair (map %permits bytes (pair (timestamp %created_at) (option
  %expiry nat))) (option %expiry nat))) (big_map %interface_fee (pair (or (or (address %fa12) (pair %fa2
  (address %token) (nat %id))) (unit %tez)) address) nat) (big_map %interface_tez_fee (pair nat address) nat)
  (big_map %auction_fee (or (or (address %fa12) (pair %fa2 (address %token) (nat %id))) (unit %tez)) nat)
  (big_map %auction_tez_fee nat nat) (set %managers address) (pair %fees (nat %interface_fee) (nat %swap_fee)
  (nat %auction_fee) (nat %withdraw_fee_reward)) (address %admin) (option %pending_admin address) (address
  %baker_registry) (address %flash_swaps_proxy) (address %auction) (nat %permits_counter) (nat %default_expiry)
  (bool %entered) (nat %tokens_count) (nat %collecting_period) (nat %baker_rate_f)) (big_map %dex_core_lambdas
  nat bytes) (big_map %metadata string bytes))`;

/** The DEX entrypoints that tell DexCore (its bucket callback `launch_callback` included). */
export const QUIPU_V2_SIGNATURE = [
  'launch_exchange',
  'invest_liquidity',
  'divest_liquidity',
  'swap',
  'launch_callback',
];

export const QUIPU_V2_DEXCORE = knownCode(
  'quipuswap v2 dexcore',
  { parameter: PARAMETER, storage: STORAGE },
  [],
  [...QUIPU_V2_SIGNATURE, 'withdraw_profit'],
);

/*
 * DexCore's records and variants the simulator and the adapter both write or read, as the node prints the types
 * above: `token_t` (a tree-layout variant fa12 | fa2 | tez), `pair_t` (a `pairs` big map value) and the `tokens`
 * big map value (LIGO comb records).
 */
const t = (prim: string, annot?: string, ...args: TypeExpr[]): TypeExpr => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args.length ? { args } : {}),
});
const comb = (...f: TypeExpr[]): TypeExpr => (f.length === 1 ? f[0] : t('pair', undefined, f[0], comb(...f.slice(1))));

export const TOKEN_T = (annot?: string): TypeExpr =>
  t(
    'or',
    annot,
    t('or', undefined, t('address', '%fa12'), t('pair', '%fa2', t('address', '%token'), t('nat', '%id'))),
    t('unit', '%tez'),
  );
export const PAIR_T = comb(
  t('nat', '%token_a_pool'),
  t('nat', '%token_b_pool'),
  t('nat', '%token_a_price_cml'),
  t('nat', '%token_b_price_cml'),
  t('nat', '%total_supply'),
  t('timestamp', '%last_block_timestamp'),
  t('option', '%bucket', t('address')),
);
export const TOKENS_T = comb(TOKEN_T('%token_a'), TOKEN_T('%token_b'));
