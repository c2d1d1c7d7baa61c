import { knownCode } from '../knownCode';

/*
 * Why: a Plenty volatile pool's real types, so a pool is read with no node (`../knownCode.ts`). Source:
 * the mainnet WETH.e/CTEZ pool's script as the node served it,
 * `fixtures/defi/pytezos/weth_e_ctez_plenty_volatile_swap/__script__.json` (baking-bad/pytezos
 * tests/contract_tests at 799f9fb67622, MIT). The sections below, parsed, equal the script's
 * (test/defi-dex/adapters/knownCode.test.ts); its code hash is d5177d7fdb73b64d. Plenty's older volatile
 * pools (without `lpFee`/`lpTokenAddress`) have other types; no script of theirs is at hand.
 */
const PARAMETER = `
  (or (or (or (pair %AddLiquidity (address %recipient) (pair (nat %token1_max) (nat %token2_max))) (address
  %ChangeAdmin)) (or (unit %ChangeState) (address %ChangeSystem))) (or (or (nat %ModifyFee) (nat
  %ModifyMaxSwapAmount)) (or (pair %RemoveLiquidity (pair (nat %lpAmount) (address %recipient)) (pair (nat
  %token1_min) (nat %token2_min))) (or (pair %Swap (pair (nat %MinimumTokenOut) (address %recipient)) (pair
  (address %requiredTokenAddress) (pair (nat %requiredTokenId) (nat %tokenAmountIn)))) (pair %forwardFee (nat
  %epoch) (address %feeDistributor))))))`;
const STORAGE = `
  (pair (pair (pair (pair (address %admin) (nat %lpFee)) (pair (address %lpTokenAddress) (nat %maxSwapLimit)))
  (pair (pair (bool %paused) (bool %state)) (pair (address %token1Address) (pair (bool %token1Check) (nat
  %token1Id))))) (pair (pair (pair (nat %token1_Fee) (nat %token1_pool)) (pair (address %token2Address) (bool
  %token2Check))) (pair (pair (nat %token2Id) (nat %token2_Fee)) (pair (nat %token2_pool) (pair (nat %totalSupply)
  (option %voterContract address))))))`;

export const PLENTY_CALLS = ['Swap', 'AddLiquidity', 'RemoveLiquidity'];

const SECTIONS = { parameter: PARAMETER, storage: STORAGE };
export const PLENTY_VOLATILE = knownCode('plenty volatile', SECTIONS, ['d5177d7fdb73b64d'], PLENTY_CALLS);
