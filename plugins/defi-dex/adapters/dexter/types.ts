import { knownCode } from '../knownCode';

/*
 * Why: Dexter v1's real types, so a pool is read with no node (`../knownCode.ts`). Source: the mainnet
 * tzBTC/XTZ pool's script as the node served it, `fixtures/defi/pytezos/dexter_tzbtc_xtz/__script__.json`
 * (baking-bad/pytezos tests/contract_tests/dexter_tzbtc_xtz at fec184356645, MIT); the USDtz/XTZ pool
 * KT1Tr2eG3eVmPRbymrbU2UppUmKjFPXomGG9 runs the same code. The sections below, parsed, equal the script's
 * (test/defi-dex/adapters/knownCode.test.ts); its code hash is 86be2327fe5248da.
 */
const PARAMETER = `
  (or (or (or (pair %approve (address :spender) (pair (nat :allowance) (nat :currentAllowance))) (pair
  %addLiquidity (pair (address :owner) (nat :minLqtMinted)) (pair (nat :maxTokensDeposited) (timestamp
  :deadline)))) (or (pair %removeLiquidity (pair (address :owner) (pair (address :to) (nat :lqtBurned))) (pair
  (mutez :minXtzWithdrawn) (pair (nat :minTokensWithdrawn) (timestamp :deadline)))) (or (pair %xtzToToken (address
  :to) (pair (nat :minTokensBought) (timestamp :deadline))) (pair %tokenToXtz (pair (address :owner) (address
  :to)) (pair (nat :tokensSold) (pair (mutez :minXtzBought) (timestamp :deadline))))))) (or (or (pair
  %tokenToToken (pair (address :outputDexterContract) (pair (nat :minTokensBought) (address :owner))) (pair
  (address :to) (pair (nat :tokensSold) (timestamp :deadline)))) (or (key_hash %updateTokenPool) (nat
  %updateTokenPoolInternal))) (or (pair %setBaker (option key_hash) bool) (or (address %setManager) (unit
  %default)))))`;
const STORAGE = `
  (pair (big_map %accounts (address :owner) (pair (nat :balance) (map (address :spender) (nat :allowance)))) (pair
  (pair (bool :selfIsUpdatingTokenPool) (pair (bool :freezeBaker) (nat :lqtTotal))) (pair (pair (address :manager)
  (address :tokenAddress)) (pair (nat :tokenPool) (mutez :xtzPool)))))`;

/** The entrypoints that tell Dexter v1 (LB, a fork, has neither `approve` nor `updateTokenPoolInternal`). */
export const DEXTER_SIGNATURE = [
  'xtzToToken',
  'tokenToXtz',
  'tokenToToken',
  'addLiquidity',
  'removeLiquidity',
  'approve',
  'updateTokenPoolInternal',
];

const SECTIONS = { parameter: PARAMETER, storage: STORAGE };
export const DEXTER_V1 = knownCode('dexter v1', SECTIONS, ['86be2327fe5248da'], DEXTER_SIGNATURE);

/** Dexter v1's storage decoded (type annotations name the fields; the big map is its id). */
export interface DexterStorage {
  accounts: number;
  selfIsUpdatingTokenPool: boolean;
  freezeBaker: boolean;
  lqtTotal: bigint;
  manager: string;
  tokenAddress: string;
  tokenPool: bigint;
  xtzPool: bigint;
}
