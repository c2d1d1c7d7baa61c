import { Parser } from '@taquito/michel-codec';
import { ContractTypes } from '../../../../framework/michelson/ContractTypes';

/*
 * Why: a Plenty farm met first in an archive or after a mid-chain start has no types at hand (no node,
 * no origination seen). These are the real ones, so such a farm is recognized by its storage and its
 * calls decoded. Source: the `parameter` and `storage` sections of the mainnet script recorded by
 * baking-bad/pytezos, `tests/contract_tests/usdt_e_usdc_e_farm/__script__.json` at commit
 * 799f9fb67622656054a371d9a5777003bccd2ec9 (the farm with lots and unstake fees; its code hash, as
 * core-chain computes it, is PLENTY_FARM_CODE_HASH). The storages of the 2021 farms in mainnet blocks
 * 1621538 and 1676122 fit the same storage type. The older farms with plain `address → nat` balances
 * are not shipped (no script of theirs was found): they are decoded only with a node's types.
 */
/** A staker's `balances` entry: its lots (raw amounts) and its balance (kept scaled, ×10^12 on USDT.e/USDC.e). */
const ENTRY = `(pair (pair (map %InvestMap nat (pair (nat %amount) (nat %level))) (nat %balance))
                        (pair (nat %counter) (pair (nat %rewards) (nat %userRewardPerTokenPaid))))`;

const STORAGE = `(pair
  (pair
    (pair (address %admin)
          (pair (big_map %balances address
                  ${ENTRY})
                (nat %blocksPerCycle)))
    (pair (pair (nat %defaultUnstakeFee) (bool %faTwoToken)) (pair (nat %lastUpdateTime) (bool %paused))))
  (pair
    (pair (pair (nat %periodFinish) (nat %rewardPerTokenStored)) (pair (nat %rewardRate) (address %rewardToken)))
    (pair (pair (address %stakeToken) (nat %totalFee)) (pair (nat %totalSupply) (map %unstakeFee nat nat)))))`;

const PARAMETER = `(or
  (or (or (pair %AddReward (nat %blocks) (nat %reward)) (unit %GetReward))
      (or (pair %RecoverExcessToken (pair (address %address) (nat %id))
                                    (pair (address %token) (pair (nat %type) (nat %value))))
          (unit %WithdrawFee)))
  (or (or (address %changeAdmin) (unit %changeState))
      (or (pair %changeUnstakeFee (pair (nat %blocksPerCycle) (nat %cycles)) (pair (nat %defaultFee) (nat %fee)))
          (or (nat %stake) (pair %unstake (nat %Amount) (nat %MapKey))))))`;

/** The code hash of the recorded script (core-chain's `code_hash`). */
const PLENTY_FARM_CODE_HASH = 'e4bf0f6cfbe97765';

const parse = (text: string): unknown => new Parser().parseMichelineExpression(text);

/** The value of a `balances` entry of the shipped farm (the lot farms' layout). */
export const BALANCE_ENTRY = parse(ENTRY);
/** The value of a `balances` entry of the older farms (a plain balance), and the key of every farm's. */
export const NAT = { prim: 'nat' };
export const ADDRESS = { prim: 'address' };

export const PLENTY_FARM_TYPES = ContractTypes.fromJSON({
  parameter: parse(PARAMETER),
  storage: parse(STORAGE),
  codeHash: PLENTY_FARM_CODE_HASH,
});
