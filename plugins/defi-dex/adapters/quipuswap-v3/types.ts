import { knownCode } from '../knownCode';

/*
 * Why: a QuipuSwap V3 pool's real types, so a pool is read with no node (`../knownCode.ts`). No compiled pool
 * script and no recorded mainnet call were found, so these are DERIVED BY HAND from the CameLIGO source,
 * madfish-solutions/quipuswap-core-v3 at 051e2a137800b1ca71ed9fd1712c0973b8bae2d1 (2023-02-10, the factory's
 * pool code `contracts/main/dex_core.mligo`): `contracts/partial/types.mligo` (storage, parameter and their
 * records) and `contracts/partial/common_types.mligo` (asset_standard_t). LIGO's layouts: records and
 * variants without `[@layout:comb]` sort their fields by name and pair neighbours level by level (as the
 * compiled builds of the same authors, quipuswap-core-v2 `bucket.tz` and quipuswap-stable-core
 * `dex4factory.tz`, have them); `[@layout:comb]` ones are right combs in declaration order; a one-field
 * record (`x80n`, `tick_index`…) is its field. The storage's and `x_to_y`'s field names agree with the types
 * madfish-solutions/quipuswap-v3-indexer generated from the mainnet pools (`types/v3_pool/storage.py`,
 * `parameter/x_to_y.py` at a176868/1e15f43); their field order is no evidence (the same tool lists the
 * Liquidity Baking CPMM's comb storage in name order: youves-indexer `types/tzbtc_amm/storage.py`).
 * The same rules applied by hand reproduce an older compiled build, madfish-solutions/quipuswap-v3-interface
 * `contracts/dex_core.json` at fe5648d81490 (LIGO 0.54.1, compiled before 2022-11-16): every entrypoint and
 * storage field the source has not changed since is identical; the rest differ exactly by the later source
 * commits (`position_ids`, `dev_fee`, `factory_address`, `token_metadata`, `update_position`'s int maximums,
 * `get_position_info` without `referral_code`). Checked against one real mainnet call: the `y_to_x` on
 * KT1DZZG2Neaq5FH6ARtwWrPDro1ZZiHkHRBA (test/fixtures/defi-dex/quipuswap-v3/quipuswap-arbitraging.json, Temple
 * wallet's mock data): its parameter, storage after and big map diffs fit (quipuswapV3Mainnet.test.ts). No pool
 * script is at hand, so no code hash is listed.
 */
const PARAMETER = `
  (or (or (or (or (or %call_fa2 (pair %balance_of (list %requests (pair (address %owner) (nat %token_id)))
  (contract %callback (list (pair (pair %request (address %owner) (nat %token_id)) (nat %balance))))) (or (list
  %transfer (pair (address %from_) (list %txs (pair (address %to_) (nat %token_id) (nat %amount))))) (list
  %update_operators (or (pair %add_operator (address %owner) (address %operator) (nat %token_id)) (pair
  %remove_operator (address %owner) (address %operator) (nat %token_id)))))) (address %claim_dev_fee)) (or (pair
  %get_position_info (nat %position_id) (contract %callback (pair (pair (nat %liquidity) (int
  %lower_tick_index)) (pair (address %owner) (int %upper_tick_index))))) (nat %increase_observation_count))) (or
  (or (pair %observe (list %times timestamp) (contract %callback (list (pair (nat
  %seconds_per_liquidity_cumulative) (int %tick_cumulative))))) (pair %set_position (int %lower_tick_index) (int
  %upper_tick_index) (int %lower_tick_witness) (int %upper_tick_witness) (nat %liquidity) (timestamp %deadline)
  (pair %maximum_tokens_contributed (nat %x) (nat %y)) (option %referral_code nat))) (or (pair
  %snapshot_cumulatives_inside (pair (contract %callback (pair (pair (int %seconds_inside) (int
  %seconds_per_liquidity_inside)) (int %tick_cumulative_inside))) (int %lower_tick_index)) (int
  %upper_tick_index)) (pair %update_position (nat %position_id) (int %liquidity_delta) (address %to_x) (address
  %to_y) (timestamp %deadline) (pair %maximum_tokens_contributed (int %x) (int %y)) (option %referral_code
  nat))))) (or (pair %x_to_y (nat %dx) (timestamp %deadline) (nat %min_dy) (address %to_dy) (option
  %referral_code nat)) (pair %y_to_x (nat %dy) (timestamp %deadline) (nat %min_dx) (address %to_dx) (option
  %referral_code nat))))`;
const STORAGE = `
  (pair (pair (pair (pair (pair %constants (pair (pair (address %factory_address) (nat %fee_bps)) (pair (nat
  %tick_spacing) (or %token_x (address %fa12) (pair %fa2 (nat %token_id) (address %token_address))))) (or
  %token_y (address %fa12) (pair %fa2 (nat %token_id) (address %token_address)))) (pair %cumulatives_buffer
  (pair (nat %first) (nat %last)) (pair (big_map %map nat (pair (pair (pair %spl (nat
  %block_start_liquidity_value) (nat %sum)) (pair %tick (int %block_start_value) (int %sum))) (timestamp
  %time))) (nat %reserved_length)))) (pair (int %cur_tick_index) (int %cur_tick_witness))) (pair (pair (pair
  %dev_fee (nat %x) (nat %y)) (pair %fee_growth (nat %x) (nat %y))) (pair (big_map %ladder (pair (nat %exp)
  (bool %positive)) (pair (int %offset) (nat %v))) (nat %liquidity)))) (pair (pair (pair (big_map %metadata
  string bytes) (nat %new_position_id)) (pair (big_map %operators (pair (address %owner) (address %operator)
  (nat %token_id)) unit) (big_map %position_ids address (set nat)))) (pair (pair (big_map %positions nat (pair
  (pair (pair (pair %fee_growth_inside_last (int %x) (int %y)) (nat %liquidity)) (pair (int %lower_tick_index)
  (address %owner))) (int %upper_tick_index))) (nat %sqrt_price)) (pair (big_map %ticks int (pair (pair (pair
  (pair (pair %fee_growth_outside (nat %x) (nat %y)) (int %liquidity_net)) (pair (nat %n_positions) (int
  %next))) (pair (pair (int %prev) (nat %seconds_outside)) (pair (nat %seconds_per_liquidity_outside) (nat
  %sqrt_price)))) (int %tick_cumulative_outside))) (big_map %token_metadata nat (pair (nat %token_id) (map
  %token_info string bytes)))))))`;

/** The calls the adapter decodes, also the entrypoints every pool of this family has (QuipuSwap V3, Plenty V3). */
export const QUIPU_V3_CALLS = ['x_to_y', 'y_to_x', 'set_position', 'update_position'];

export const QUIPU_V3_POOL = knownCode(
  'quipuswap v3 pool',
  { parameter: PARAMETER, storage: STORAGE },
  [],
  QUIPU_V3_CALLS,
);
