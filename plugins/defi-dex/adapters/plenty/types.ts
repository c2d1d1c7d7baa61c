import { knownCode } from '../knownCode';

/*
 * Why: a Plenty volatile pool's real types, so a pool is read with no node (`../knownCode.ts`). Source:
 * the mainnet WETH.e/CTEZ pool's script as the node served it,
 * `fixtures/defi/pytezos/weth_e_ctez_plenty_volatile_swap/__script__.json` (baking-bad/pytezos
 * tests/contract_tests at 799f9fb67622, MIT). The sections below, parsed, equal the script's
 * (test/defi-dex/adapters/knownCode.test.ts); its code hash is d5177d7fdb73b64d. The mainnet pool
 * KT1K9hiEmnNyfuwoL2S14YuULUC9E5ciguNN (code hash 21bd935caa9ab789) has the same types: its script in youves-sdk's
 * script cache (youves-com/youves-sdk `src/contracts/contracts.ts` at 53980f4deb59299c9bd5ae6e98038116f2233547, MIT;
 * test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt, youvesSdkScripts.test.ts).
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
export const PLENTY_VOLATILE = knownCode(
  'plenty volatile',
  SECTIONS,
  ['d5177d7fdb73b64d', '21bd935caa9ab789'],
  PLENTY_CALLS,
);

/*
 * Plenty's older volatile pools (a `systemFee` beside `lpFee`, `WithdrawSystemFee`, `getReserveBalance`; no
 * `voterContract`): uUSD/YOU KT1TnrLFrdemNZ1AnnWNfi21rXg7eknS484C and uUSD/uDEFI KT1EAw8hL5zseB3SLpJhBqPQfP9aWrWh8iMW,
 * code hash af37a97a97210120. Source: their scripts in the same youves-sdk script cache; the sections below,
 * parsed, equal them (youvesSdkScripts.test.ts).
 */
const SYSTEM_FEE = {
  parameter: `
  (or (or (or (pair %AddLiquidity (address %recipient) (pair (nat %token1_max) (nat %token2_max))) (address
  %ChangeAdmin)) (or (unit %ChangeState) (or (pair %ModifyFee (nat %lpFee) (nat %systemFee)) (nat
  %ModifyMaxSwapAmount)))) (or (or (pair %RemoveLiquidity (pair (nat %lpAmount) (address %recipient)) (pair
  (nat %token1_min) (nat %token2_min))) (pair %Swap (pair (nat %MinimumTokenOut) (address %recipient)) (pair
  (address %requiredTokenAddress) (pair (nat %requiredTokenId) (nat %tokenAmountIn))))) (or (address
  %WithdrawSystemFee) (or (pair %getExchangeFee (pair (pair (address %token1Address) (nat %token1Id)) (pair
  (address %token2Address) (nat %token2Id))) (contract (pair (nat %lpFee) (nat %systemFee)))) (pair
  %getReserveBalance (pair (pair (address %token1Address) (nat %token1Id)) (pair (address %token2Address) (nat
  %token2Id))) (contract (pair (nat %token1_pool) (nat %token2_pool))))))))`,
  storage: `
  (pair (pair (pair (pair (address %admin) (nat %lpFee)) (pair (address %lpTokenAddress) (nat %maxSwapLimit)))
  (pair (pair (bool %paused) (nat %systemFee)) (pair (address %token1Address) (bool %token1Check)))) (pair
  (pair (pair (nat %token1Id) (nat %token1_Fee)) (pair (nat %token1_pool) (address %token2Address))) (pair
  (pair (bool %token2Check) (nat %token2Id)) (pair (nat %token2_Fee) (pair (nat %token2_pool) (nat
  %totalSupply))))))`,
};
export const PLENTY_VOLATILE_SYSTEM_FEE = knownCode(
  'plenty volatile with system fee',
  SYSTEM_FEE,
  ['af37a97a97210120'],
  PLENTY_CALLS,
);
