import { Parser } from '@taquito/michel-codec';
import { ContractTypes, type KnownCode } from '../../../../framework';

/*
 * Why: a ctez 2 main contract met first in an archive or after a mid-chain start has no types at hand (no
 * node, no origination seen); with these it is recognized at its first oven call and decoded (framework
 * `KnownCode`). Source: the `parameter` and `storage` sections of the committed compiled build
 * trilitech/ctez `build/ctez_2.tz` at commit fd6cb112607eeb503768d41d93b3e036ec5d7ee6 (2024-11-12, MIT; still
 * the file at the repository's head 0e9897b, 2025-07-24), copied unchanged (test/fixtures/defi-lending/ctez).
 * Its code hash, as core-chain computes it from the build's code, is listed. No mainnet script or call of
 * ctez 2 was found, so that this build is the deployed one is not proven; ctez 1's types (below) are
 * derived from its source.
 */
/** The `ovens` big map's key (an oven's handle) and value, as the build has them. */
const HANDLE = '(pair (nat %id) (address %owner))';
const OVEN = `(pair (mutez %tez_balance)
                 (nat %ctez_outstanding)
                 (address %address)
                 (nat %fee_index))`;

const PARAMETER = `
  (or (pair %ctez_to_tez
         (address %to)
         (nat %ctez_sold)
         (nat %min_tez_bought)
         (timestamp %deadline))
      (or (pair %tez_to_ctez (address %to) (nat %min_ctez_bought) (timestamp %deadline))
          (or (address %collect_from_ctez_liquidity)
              (or (address %collect_from_tez_liquidity)
                  (or (pair %remove_ctez_liquidity
                         (address %to)
                         (nat %liquidity_redeemed)
                         (nat %min_self_received)
                         (nat %min_proceeds_received)
                         (nat %min_subsidy_received)
                         (timestamp %deadline))
                      (or (pair %remove_tez_liquidity
                             (address %to)
                             (nat %liquidity_redeemed)
                             (nat %min_self_received)
                             (nat %min_proceeds_received)
                             (nat %min_subsidy_received)
                             (timestamp %deadline))
                          (or (pair %add_ctez_liquidity
                                 (address %owner)
                                 (nat %amount_deposited)
                                 (nat %min_liquidity)
                                 (timestamp %deadline))
                              (or (pair %add_tez_liquidity
                                     (address %owner)
                                     (nat %min_liquidity)
                                     (timestamp %deadline))
                                  (or (pair %mint_or_burn (nat %id) (int %quantity))
                                      (or (pair %liquidate_oven
                                             (pair %handle (nat %id) (address %owner))
                                             (nat %quantity)
                                             (contract %to unit))
                                          (or (pair %register_oven_deposit
                                                 (pair %handle (nat %id) (address %owner))
                                                 (mutez %amount))
                                              (or (pair %withdraw_from_oven
                                                        (nat %id) (mutez %amount) (contract %to unit))
                                                  (or (pair %create_oven
                                                         (nat %id)
                                                         (option %delegate key_hash)
                                                         (or %depositors (unit %any) (set %whitelist address)))
                                                      (address %set_ctez_fa12_address))))))))))))))`;

const STORAGE = `
  (pair (big_map %ovens
           ${HANDLE}
           ${OVEN})
        (timestamp %last_update)
        (pair %sell_ctez
           (big_map %liquidity_owners
              address
              (pair (nat %liquidity_shares) (nat %proceeds_owed) (nat %subsidy_owed)))
           (nat %total_liquidity_shares)
           (nat %self_reserves)
           (nat %proceeds_debts)
           (nat %proceeds_reserves)
           (nat %subsidy_debts)
           (nat %subsidy_reserves)
           (nat %fee_index))
        (pair %sell_tez
           (big_map %liquidity_owners
              address
              (pair (nat %liquidity_shares) (nat %proceeds_owed) (nat %subsidy_owed)))
           (nat %total_liquidity_shares)
           (nat %self_reserves)
           (nat %proceeds_debts)
           (nat %proceeds_reserves)
           (nat %subsidy_debts)
           (nat %subsidy_reserves)
           (nat %fee_index))
        (pair %context (nat %target) (int %drift) (nat %_Q) (address %ctez_fa12_address))
        (nat %last_event_id)
        (big_map %metadata string bytes)
        (address %originator))`;

const parse = (text: string): unknown => JSON.parse(JSON.stringify(new Parser().parseMichelineExpression(text)));

/**
 * An oven's handle (the `ovens` key; ctez 1's `oven_handle` record is read as the same comb, unchecked) and ctez 2's
 * oven.
 */
export const OVEN_HANDLE = parse(HANDLE);
export const OVEN_2 = parse(OVEN);
/*
 * ctez 1 (mainnet KT1GWnsoFZVHGh7roXEER3qeCcgJgrXT3de2): no compiled build or script of it was found, so its types are
 * DERIVED BY HAND from the source, tezos-checker/ctez `ctez.mligo` and `oven_types.mligo` at
 * 56a812b3fe6a6195bbf1e70df90713b5fc4d5875 (2021-05-11, MIT; unchanged to the repository's head ed4c102): `parameter`,
 * `storage`, `oven`, `oven_handle`, `create`, `withdraw`, `liquidate`, `register_deposit`, `mint_or_burn`,
 * `set_addresses`, `depositors`. LIGO's default layouts of that era: `[@layout:comb]` records are right combs in
 * declaration order (`[@annot:to] to_` is `%to`); other records and variants sort their fields/constructors by name
 * and pair neighbours level by level (a variant's annotation lower-cases its first letter). Unchecked against the
 * chain; no code hash.
 */
const HANDLE_1 = '(pair %handle (nat %id) (address %owner))';
/** `type oven = {tez_balance : tez ; ctez_outstanding : nat ; address : address}`, fields sorted. */
const OVEN_1_TYPE = '(pair (pair (address %address) (nat %ctez_outstanding)) (mutez %tez_balance))';
const PARAMETER_1 = `
  (or (or (or (pair %cfmm_price nat nat)
              (pair %create (nat %id) (option %delegate key_hash) (or %depositors (unit %any) (set %whitelist address))))
          (or (contract %get_target nat)
              (pair %liquidate ${HANDLE_1} (nat %quantity) (contract %to unit))))
      (or (or (pair %mint_or_burn (nat %id) (int %quantity))
              (pair %register_deposit ${HANDLE_1} (mutez %amount)))
          (or (pair %set_addresses (address %cfmm_address) (address %ctez_fa12_address))
              (pair %withdraw (nat %id) (mutez %amount) (contract %to unit)))))`;
const STORAGE_1 = `
  (pair (pair (pair (address %cfmm_address) (address %ctez_fa12_address))
              (pair (int %drift) (timestamp %last_drift_update)))
        (pair (big_map %ovens (pair (nat %id) (address %owner)) ${OVEN_1_TYPE})
              (nat %target)))`;

/** ctez 1's oven (its `ovens` values). */
export const OVEN_1 = parse(OVEN_1_TYPE);

export const CTEZ_1: KnownCode = {
  name: 'ctez 1',
  types: ContractTypes.fromJSON({ parameter: parse(PARAMETER_1), storage: parse(STORAGE_1), codeHash: null }),
  codeHashes: [],
  signature: ['register_deposit', 'cfmm_price', 'get_target'],
};

export const CTEZ_2: KnownCode = {
  name: 'ctez 2',
  types: ContractTypes.fromJSON({ parameter: parse(PARAMETER), storage: parse(STORAGE), codeHash: null }),
  codeHashes: ['ae1d15a9f4a8ed36'],
  // Not `mint_or_burn`: the ctez FA1.2 token (and many others) has one too, and no version fits them.
  signature: ['create_oven', 'register_oven_deposit', 'withdraw_from_oven', 'liquidate_oven'],
};
