import { Parser } from '@taquito/michel-codec';
import { ContractTypes, type KnownCode } from '../../../../framework';

/*
 * Why: a ctez 2 main contract met first in an archive or after a mid-chain start has no types at hand (no
 * node, no origination seen); with these it is recognized at its first oven call and decoded (framework
 * `KnownCode`). Source: the `parameter` and `storage` sections of the committed compiled build
 * trilitech/ctez `build/ctez_2.tz` at commit fd6cb112607eeb503768d41d93b3e036ec5d7ee6 (2024-11-12, MIT; still
 * the file at the repository's head 0e9897b, 2025-07-24), copied unchanged (test/fixtures/defi-lending/ctez).
 * Its code hash, as core-chain computes it from the build's code, is listed. No mainnet script or call of
 * ctez 2 was found, so that this build is the deployed one is not proven; ctez 1 ships no types (no
 * compiled build of its mainnet version was found).
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
/**
 * ctez 1's oven, `type oven = {tez_balance : tez ; ctez_outstanding : nat ; address : address}` (tezos-checker/ctez
 * `ctez.mligo` at 0034861c7ac892e0a760fa5162a12b30f5fe8179), in LIGO's default record layout (fields sorted by name,
 * paired as a tree). DERIVED from the source, unchecked against the chain (no ctez 1 script or call was found).
 */
export const OVEN_1 = parse('(pair (pair (address %address) (nat %ctez_outstanding)) (mutez %tez_balance))');

export const CTEZ_2: KnownCode = {
  name: 'ctez 2',
  types: ContractTypes.fromJSON({ parameter: parse(PARAMETER), storage: parse(STORAGE), codeHash: null }),
  codeHashes: ['ae1d15a9f4a8ed36'],
  // Not `mint_or_burn`: the ctez FA1.2 token (and many others) has one too, and no version fits them.
  signature: ['create_oven', 'register_oven_deposit', 'withdraw_from_oven', 'liquidate_oven'],
};
