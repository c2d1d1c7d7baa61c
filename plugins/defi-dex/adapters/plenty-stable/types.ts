import { knownCode } from '../knownCode';

/*
 * Why: the real types of Plenty's two kinds of stable pool, so a pool is read with no node
 * (`../knownCode.ts`). Sources: the mainnet scripts as the node served them, baking-bad/pytezos
 * tests/contract_tests at 799f9fb67622 (MIT), copied to `fixtures/defi/pytezos/`:
 * - token/token: `usdt_e_usdc_e_plenty_stable_swap/__script__.json` (code hash 70ab69327a44e3bf);
 * - ctez/tez: `ctez_tez_plenty_stable_swap/__script__.json` (code hash b01b68a17e3bbc30).
 * The sections below, parsed, equal the scripts' (test/defi-dex/adapters/knownCode.test.ts).
 */
const TOKEN_POOL = {
  parameter: `
  (or (or (or (address %ChangeAdmin) (unit %ChangeState)) (or (address %ChangeSystem) (nat %ModifyFee))) (or (or
  (pair %Swap (pair (nat %MinimumTokenOut) (address %recipient)) (pair (address %requiredTokenAddress) (pair (nat
  %requiredTokenId) (nat %tokenAmountIn)))) (pair %add_liquidity (address %recipient) (pair (nat %token1_max) (nat
  %token2_max)))) (or (pair %forwardFee (nat %epoch) (address %feeDistributor)) (pair %remove_liquidity (pair (nat
  %lpAmount) (address %recipient)) (pair (nat %token1_min) (nat %token2_min))))))`,
  storage: `
  (pair (pair (pair (pair (address %admin) (nat %lpFee)) (pair (address %lqtAddress) (nat %lqtTotal))) (pair (pair
  (bool %paused) (bool %state)) (pair (address %token1Address) (pair (bool %token1Check) (nat %token1Fee)))))
  (pair (pair (pair (nat %token1Id) (nat %token1Pool)) (pair (nat %token1Precision) (pair (address %token2Address)
  (bool %token2Check)))) (pair (pair (nat %token2Fee) (nat %token2Id)) (pair (nat %token2Pool) (pair (nat
  %token2Precision) (option %voterContract address))))))`,
};

const CTEZ_POOL = {
  parameter: `
  (or (or (or (address %ChangeAdmin) (or (option %ChangeBakerAddress key_hash) (unit %ChangeLockState))) (or (unit
  %ChangeState) (or (address %ChangeSystem) (pair %add_liquidity (nat %maxCashDeposited) (pair (nat %minLqtMinted)
  (address %owner)))))) (or (or (pair %ctez_to_tez (nat %cashSold) (pair (nat %minTezBought) (address
  %recipient))) (or (nat %ctez_to_tez_callback) (unit %default))) (or (or (pair %forwardFee (nat %epoch) (address
  %feeDistributor)) (pair %remove_liquidity (nat %lqtBurned) (pair (nat %minCashWithdrawn) (nat
  %minTezWithdrawn)))) (or (pair %tez_to_ctez (nat %minCashBought) (address %recipient)) (nat
  %tez_to_ctez_callback)))))`,
  storage: `
  (pair (pair (pair (pair (bool %Locked) (address %admin)) (pair (address %ctezAddress) (nat %ctezFee))) (pair
  (pair (nat %ctezPool) (address %ctez_admin)) (pair (nat %lpFee) (pair (address %lqtAddress) (nat %lqtTotal)))))
  (pair (pair (pair (option %minAmount nat) (bool %paused)) (pair (option %recipient address) (option %sender
  address))) (pair (pair (bool %state) (nat %tezPool)) (pair (option %tradeAmount nat) (pair (option
  %voterContract address) (nat %xtzFee))))))`,
};

/** The entrypoints of a token/token stable pool (the volatile pools spell theirs AddLiquidity/RemoveLiquidity). */
export const TOKEN_POOL_CALLS = ['Swap', 'add_liquidity', 'remove_liquidity'];
/** The ctez/tez pool's calls that move the reserves (a swap settles in its `_callback`), and its signature. */
export const CTEZ_CALLS = ['add_liquidity', 'remove_liquidity', 'tez_to_ctez_callback', 'ctez_to_tez_callback'];
export const CTEZ_SIGNATURE = ['tez_to_ctez', 'ctez_to_tez', ...CTEZ_CALLS];

export const PLENTY_STABLE_TOKEN = knownCode('plenty stable token', TOKEN_POOL, ['70ab69327a44e3bf'], TOKEN_POOL_CALLS);
export const PLENTY_STABLE_CTEZ = knownCode('plenty stable ctez/tez', CTEZ_POOL, ['b01b68a17e3bbc30'], CTEZ_SIGNATURE);
