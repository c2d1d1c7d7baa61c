import { knownCode } from '../knownCode';

/*
 * Why: the Liquidity Baking CPMM's real types, so the CPMM is read with no node (`../knownCode.ts`).
 * Source: the protocol embeds the CPMM's script: tezos/tezos-mirror
 * `src/proto_alpha/lib_protocol/liquidity_baking_cpmm.ml` at 0942f39e69819fe04a35884862c643210144f318
 * (`let script`: its `K_parameter` and `K_storage` sections, written here in Michelson). No copy of the
 * script as a node serves it is at hand, so no code hash is listed (a script met is logged, not refused).
 */
const PARAMETER = `
  (or (or (or (pair %addLiquidity (address %owner) (pair (nat %minLqtMinted) (pair (nat %maxTokensDeposited)
  (timestamp %deadline)))) (unit %default)) (or (pair %removeLiquidity (address %to) (pair (nat %lqtBurned) (pair
  (mutez %minXtzWithdrawn) (pair (nat %minTokensWithdrawn) (timestamp %deadline))))) (pair %tokenToToken (address
  %outputDexterContract) (pair (nat %minTokensBought) (pair (address %to) (pair (nat %tokensSold) (timestamp
  %deadline))))))) (or (pair %tokenToXtz (address %to) (pair (nat %tokensSold) (pair (mutez %minXtzBought)
  (timestamp %deadline)))) (pair %xtzToToken (address %to) (pair (nat %minTokensBought) (timestamp %deadline)))))`;
const STORAGE = `
  (pair (nat %tokenPool) (pair (mutez %xtzPool) (pair (nat %lqtTotal) (pair (address %tokenAddress)
  (address %lqtAddress)))))`;

export const LB_CALLS = ['xtzToToken', 'tokenToXtz', 'tokenToToken', 'addLiquidity', 'removeLiquidity'];

export const LB_CPMM = knownCode('liquidity baking cpmm', { parameter: PARAMETER, storage: STORAGE }, [], LB_CALLS);

/** The arguments of the CPMM's calls decoded (each entrypoint's record; the fields the adapter reads). */
export interface LbCallArgs {
  /** `xtzToToken`, `tokenToXtz`, `removeLiquidity`: who gets the output. */
  to: string;
  /** `addLiquidity`: who gets the shares. */
  owner: string;
  /** `tokenToToken`: the pool the tez go on to. */
  outputDexterContract: string;
}

/** The CPMM's storage decoded. */
export interface LbStorage {
  tokenPool: bigint;
  xtzPool: bigint;
  lqtTotal: bigint;
  tokenAddress: string;
  lqtAddress: string;
}
