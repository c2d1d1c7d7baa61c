import { knownCode } from '../knownCode';

/*
 * Why: the real types of the Youves flat-curve pools, so a pool is read with no node (`../knownCode.ts`).
 * Source: the mainnet scripts as a node served them, in youves-com/youves-sdk `src/contracts/contracts.ts` at
 * 53980f4deb59299c9bd5ae6e98038116f2233547 (MIT), copied to
 * test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt. Three shapes, four builds:
 * - `01ef9aacd418e722` (USDt/uUSD KT1UJBvm…, USDC.e/uUSD KT1NgbaaY…) and `263fd16805301dce` (wUSDC/uUSD
 *   KT1JeWiS…): FA2 cash with `cashId`, `pendingPoolUpdates`;
 * - `d7b57b97de9c914f` (tzBTC/wWBTC, tzBTC/uBTC, kUSD/uUSD KT1AVbWy…, USDtz/uUSD): no `cashId`;
 * - `84e7f2b62b3d7111` (WBTC.e/uBTC KT1CkpDu…): `cashId`, no `pendingPoolUpdates` nor pool-update entrypoints.
 * The sections below, parsed, equal the scripts' (test/defi-dex/adapters/youvesSdkScripts.test.ts).
 */

/** A right comb of the fields, as the scripts nest them. */
const comb = (fields: readonly string[]): string =>
  fields.length === 1 ? fields[0] : `(pair ${fields[0]} ${comb(fields.slice(1))})`;
const deadline = '(timestamp %deadline)';

/** The entrypoints every build has but `tokenToCash`. */
const ACTIONS = `(or (or (or (unit %acceptAdminProposal) (pair %addLiquidity (address %owner)
  ${comb(['(nat %minLqtMinted)', '(nat %maxTokensDeposited)', '(nat %cashDeposited)', deadline])}))
  (or (pair %cashToToken (address %to) ${comb(['(nat %minTokensBought)', '(nat %cashSold)', deadline])})
  (pair %changeFee (nat %numerator) (nat %denominator))))
  (or (or (address %proposeNewAdmin) (pair %removeLiquidity (address %to)
  ${comb(['(nat %lqtBurned)', '(nat %minCashWithdrawn)', '(nat %minTokensWithdrawn)', deadline])}))
  (or (address %setLqtAddress) (address %setRewardRecipient))))`;
const TOKEN_TO_CASH = `(pair %tokenToCash (address %to)
  ${comb(['(nat %tokensSold)', '(nat %minCashBought)', deadline])})`;
const POOL_UPDATES = '(list %updateTokenPoolInternal (pair (pair address nat) nat))';
/** The builds with pool updates: `updateCashPoolInternal` takes FA2 balances (`cashId`) or an FA1.2 one. */
const withUpdates = (cashUpdate: string): string =>
  `(or ${ACTIONS} (or (or ${TOKEN_TO_CASH} ${cashUpdate}) (or (unit %updatePools) ${POOL_UPDATES})))`;

/** The storage's fields in order, `cashId` and `pendingPoolUpdates` where the build has them. */
const storage = (cashId: boolean, pending: boolean): string =>
  comb([
    ...['(nat %tokenPool)', '(address %tokenAddress)', '(nat %tokenMultiplier)', '(nat %tokenId)', '(nat %cashPool)'],
    ...['(address %cashAddress)', '(nat %cashMultiplier)', ...(cashId ? ['(nat %cashId)'] : [])],
    ...['(address %admin)', '(address %proposedAdmin)', '(nat %lqtTotal)', '(address %lqtAddress)'],
    ...(pending ? ['(nat %pendingPoolUpdates)'] : []),
    ...['(address %rewardRecipient)', '(pair %feeRatio (nat %numerator) (nat %denominator))'],
  ]);

/** The entrypoints that tell a flat-curve pool (ctez's CFMM has the first four, not the reward recipient). */
export const YOUVES_FLAT_CALLS = ['cashToToken', 'tokenToCash', 'addLiquidity', 'removeLiquidity'];
const SIGNATURE = [...YOUVES_FLAT_CALLS, 'setRewardRecipient'];

export const YOUVES_FLAT_FA2_CASH = knownCode(
  'youves flat fa2 cash',
  {
    parameter: withUpdates(`(list %updateCashPoolInternal (pair (pair address nat) nat))`),
    storage: storage(true, true),
  },
  ['01ef9aacd418e722', '263fd16805301dce'],
  SIGNATURE,
);
export const YOUVES_FLAT_FA12_CASH = knownCode(
  'youves flat fa1.2 cash',
  { parameter: withUpdates('(nat %updateCashPoolInternal)'), storage: storage(false, true) },
  ['d7b57b97de9c914f'],
  SIGNATURE,
);
export const YOUVES_FLAT_NO_UPDATES = knownCode(
  'youves flat without pool updates',
  { parameter: `(or ${ACTIONS} ${TOKEN_TO_CASH})`, storage: storage(true, false) },
  ['84e7f2b62b3d7111'],
  SIGNATURE,
);
