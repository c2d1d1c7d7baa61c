import { knownCode } from '../knownCode';

/*
 * Why: the real types of Vortex's FA1.2 pools, so a pool is read with no node (`../knownCode.ts`). Source:
 * the exchange code the Vortex FA1.2 factory originates (its `CREATE_CONTRACT`'s `parameter` and `storage`),
 * stove-labs/arbitrage-bot `integration-tests/integration-tests/vortex/contracts/contract.tz` at
 * 52ad69b29dfb7558fa7691c24141c882ef665529 (a copy used by that project's tests; no mainnet pool's script is
 * at hand, so no code hash is listed). The FA2-token pools (`tokenId` in the storage) have other types,
 * not at hand either.
 */
const EXCHANGE = {
  parameter: `
  (or (or (or (or (pair %addLiquidity (address %owner) (pair (nat %minLqtMinted) (pair (nat %maxTokensDeposited)
  (timestamp %deadline)))) (unit %default)) (or (pair %removeLiquidity (address %to) (pair (nat %lqtBurned) (pair
  (mutez %minXtzWithdrawn) (pair (nat %minTokensWithdrawn) (timestamp %deadline))))) (pair %setBaker (option
  %baker key_hash) (bool %freezeBaker)))) (or (or (address %setLqtAddress) (address %setManager)) (or (pair
  %tokenToToken (address %outputDexterContract) (pair (nat %minTokensBought) (pair (address %to) (pair (nat
  %tokensSold) (timestamp %deadline))))) (pair %tokenToXtz (address %to) (pair (nat %tokensSold) (pair (mutez
  %minXtzBought) (timestamp %deadline))))))) (or (or (address %updateReserve) (unit %updateTokenPool)) (or (nat
  %updateTokenPoolInternal) (pair %xtzToToken (address %to) (pair (nat %minTokensBought) (timestamp
  %deadline))))))`,
  storage: `
  (pair (nat %tokenPool) (pair (mutez %xtzPool) (pair (nat %lqtTotal) (pair (bool %selfIsUpdatingTokenPool) (pair
  (bool %freezeBaker) (pair (address %manager) (pair (address %tokenAddress) (pair (address %lqtAddress) (pair
  (big_map %history string nat) (pair (big_map %user_investments address (pair (pair (or %direction (unit %aDD)
  (unit %rEMOVE)) (nat %token)) (mutez %xtz))) (address %reserve)))))))))))`,
};

export const VORTEX_CALLS = ['xtzToToken', 'tokenToXtz', 'tokenToToken', 'addLiquidity', 'removeLiquidity'];

export const VORTEX_FA12 = knownCode('vortex fa1.2', EXCHANGE, [], VORTEX_CALLS);

/** A Vortex pool's storage decoded; `tokenId` only in the FA2-token variant. */
export interface VortexStorage {
  xtzPool: bigint;
  tokenPool: bigint;
  lqtTotal: bigint;
  lqtAddress: string;
  tokenAddress: string;
  tokenId?: bigint;
  user_investments: number;
  /** The account the pool pays its reserve fee to. */
  reserve?: string;
}
