import { Parser } from '@taquito/michel-codec';
import { ContractTypes } from '../../../../framework/michelson/ContractTypes';

/*
 * Why: QuipuSwap v1 pools met first in an archive or after a mid-chain start have no types at hand (no
 * node, no watch, no origination seen); these are the real ones, so such a pool is recognized by its
 * storage and its calls decoded, `use` included. Source: madfish-solutions/quipuswap-core,
 * `contracts/main/DexFA12.tz` and `contracts/main/DexFA2.tz` at commit
 * 12dbddef5b3efa885460d48313feb72a5980d378 (2021-05-06, "new version"): the types below, once parsed,
 * equal those files' `parameter` and `storage` sections. Their shapes fit the mainnet pools' storages
 * and `use` calls recorded in mainnet blocks 1621538 and 1676122; the files' other commits do not fit. The mainnet
 * scripts in youves-sdk's script cache (test/fixtures/defi-dex/youves-flat, SOURCES.md) have these types (their
 * combs written n-ary): FA1.2 code hash 59dd4b220b82cb64, FA2 69cc3a03bc9569e0 (youvesSdkScripts.test.ts).
 * The pool's record and the call's `or` tree recur inside the lambda big maps' types, hence the pieces.
 */

/** The pool's actions, the parent entrypoint `use` (the same tree in both contracts). */
const ACTION = `(or (or (or (pair %divestLiquidity (pair (nat %min_tez) (nat %min_tokens)) (nat %shares))
                (nat %initializeExchange))
            (or (nat %investLiquidity) (pair %tezToTokenPayment (nat %min_out) (address %receiver))))
        (or (or (pair %tokenToTezPayment (pair (nat %amount) (nat %min_out)) (address %receiver))
                (pair %veto (nat %value) (address %voter)))
            (or (pair %vote (pair (key_hash %candidate) (nat %value)) (address %voter)) (address %withdrawProfit))))`;

const VOTING_HEAD = `(pair (pair (address %baker_validator) (option %current_candidate key_hash))
      (pair (option %current_delegated key_hash) (timestamp %last_update_time)))`;
const VOTER = `(big_map %voters address
      (pair (pair (option %candidate key_hash) (timestamp %last_veto)) (pair (nat %veto) (nat %vote))))`;
const USER_REWARDS = '(big_map %user_rewards address (pair (nat %reward) (nat %reward_paid)))';
const REWARDS = '(pair (pair (nat %reward_paid) (nat %reward_per_sec)) (pair (nat %reward_per_share) (nat %tez_pool)))';

/** The pool's record (`storage` in the contract's storage), `annot` = ' %storage' there, '' in the lambdas. */
const FA12_RECORD = (annot: string) => `(pair${annot}
  (pair (pair ${VOTING_HEAD}
              (pair (pair (timestamp %last_veto)
                          (big_map %ledger address
                             (pair (pair (map %allowances address nat) (nat %balance)) (nat %frozen_balance))))
                    (pair (timestamp %period_finish) (nat %reward))))
        (pair ${REWARDS}
              (pair (pair (address %token_address) (nat %token_pool)) (pair (nat %total_reward) (nat %total_supply)))))
  (pair (pair (pair (nat %total_votes) ${USER_REWARDS}) (pair (nat %veto) (big_map %vetos key_hash timestamp)))
        (pair ${VOTER} (big_map %votes key_hash nat))))`;

const FA2_RECORD = (annot: string) => `(pair${annot}
  (pair (pair ${VOTING_HEAD}
              (pair (pair (timestamp %last_veto)
                          (big_map %ledger address
                             (pair (pair (set %allowances address) (nat %balance)) (nat %frozen_balance))))
                    (pair (timestamp %period_finish) (nat %reward))))
        (pair ${REWARDS}
              (pair (pair (address %token_address) (nat %token_id)) (pair (nat %token_pool) (nat %total_reward)))))
  (pair (pair (pair (nat %total_supply) (nat %total_votes)) (pair ${USER_REWARDS} (nat %veto)))
        (pair (pair (big_map %vetos key_hash timestamp) ${VOTER}) (big_map %votes key_hash nat))))`;

const FA12_TRANSFER = '(pair %transfer (address %from) (pair (address %to) (nat %value)))';
const FA12_TOKEN_ACTION = `(or (or (or (pair %iApprove (address %spender) (nat %value))
                (pair %iGetAllowance (pair (address %owner) (address %spender)) (contract nat)))
            (or (pair %iGetBalance (address %owner) (contract nat)) (pair %iGetTotalSupply unit (contract nat))))
        (pair %iTransfer (address %from) (pair (address %to) (nat %value))))`;

const FA2_BALANCE_OF = (name: string) => `(pair %${name}
  (list %requests (pair (address %owner) (nat %token_id)))
  (contract %callback (list (pair (pair %request (address %owner) (nat %token_id)) (nat %balance)))))`;
const FA2_TRANSFER = (name: string) =>
  `(list %${name} (pair (address %from_) (list %txs (pair (address %to_) (pair (nat %token_id) (nat %amount))))))`;
const FA2_OPERATORS = (name: string) => `(list %${name}
  (or (pair %add_operator (address %owner) (pair (address %operator) (nat %token_id)))
      (pair %remove_operator (address %owner) (pair (address %operator) (nat %token_id)))))`;
const FA2_TOKEN_ACTION = `(or (or ${FA2_BALANCE_OF('iBalance_of')} ${FA2_TRANSFER('iTransfer')})
    ${FA2_OPERATORS('iUpdate_operators')})`;

const FA12_PARAMETER = `(or (or (or (pair %approve (address %spender) (nat %value)) (unit %default))
            (or (pair %getAllowance (pair (address %owner) (address %spender)) (contract nat))
                (pair %getBalance (address %owner) (contract nat))))
        (or (or (contract %getReserves (pair nat nat)) (pair %getTotalSupply unit (contract nat)))
            (or ${FA12_TRANSFER} ${ACTION.replace('(or', '(or %use')})))`;

const FA2_PARAMETER = `(or (or (or ${FA2_BALANCE_OF('balance_of')} (unit %default))
            (or (contract %get_reserves (pair nat nat)) ${FA2_TRANSFER('transfer')}))
        (or ${FA2_OPERATORS('update_operators')} ${ACTION.replace('(or', '(or %use')}))`;

/** A lambda big map of the storage: `(action, record, self) → (operations, record)`. */
const lambdas = (name: string, action: string, record: string) =>
  `(big_map %${name} nat (lambda (pair (pair ${action} ${record}) address) (pair (list operation) ${record})))`;

const storageType = (record: (annot: string) => string, tokenAction: string) => `(pair
  (pair ${lambdas('dex_lambdas', ACTION, record(''))} (big_map %metadata string bytes))
  (pair ${record(' %storage')} ${lambdas('token_lambdas', tokenAction, record(''))}))`;

const parse = (text: string): unknown => new Parser().parseMichelineExpression(text);
const types = (parameter: string, storage: string) =>
  ContractTypes.fromJSON({ parameter: parse(parameter), storage: parse(storage), codeHash: null });

/** The versions a pool is recognized by with no types at hand, tried in this order: FA1.2, then FA2. */
export const QUIPU_V1_TYPES: readonly ContractTypes[] = [
  types(FA12_PARAMETER, storageType(FA12_RECORD, FA12_TOKEN_ACTION)),
  types(FA2_PARAMETER, storageType(FA2_RECORD, FA2_TOKEN_ACTION)),
];
