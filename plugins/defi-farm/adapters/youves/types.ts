import { Parser } from '@taquito/michel-codec';
import { ContractTypes, type KnownCode } from '../../../../framework';

/*
 * Why: a Youves savings pool met first in an archive or after a mid-chain start has no types at hand (no node, no
 * origination seen); with these it is recognized at its first call and decoded (framework `KnownCode`). Source: the
 * v2 pools' mainnet scripts as a node served them, in youves-sdk's script cache (youves-com/youves-sdk
 * `src/contracts/contracts.ts` at 53980f4deb59299c9bd5ae6e98038116f2233547, MIT; copied to
 * test/fixtures/defi-dex/youves-flat/youves-sdk-0.0.6-contracts.ts.txt, see test/fixtures/defi-farm/youves/SOURCES.md):
 * uUSD KT1TMfRfmJ5mkJEXZGRCsqLHn2rgnV1SdUzb and uDEFI KT1Kvg5eJVuYfTC1bU1bwWyn4e1PRGKAf6sy (code hash
 * 308ae746e5ac686d), uBTC KT1KNbtEBKumoZoyp5uq6A4v3ETN7boJ9ArF (c02b8bf9dc2bc407), the same types. The sections
 * below, parsed, equal those scripts' (test/defi-dex/adapters/youvesSdkScripts.test.ts). The v1 pool (4036277d73fe873f,
 * no vesting) and the v3 design (56ef0485ef0545ad, FA2 stakes) have other types and are not shipped.
 */
const PARAMETER = `
  (or (or (or (nat %bailout) (or (unit %default) (nat %deposit))) (or (lambda %execute unit (list operation))
  (or (nat %internal_bailout) (nat %internal_deposit)))) (or (or (unit %internal_withdraw) (or (pair
  %remove_administrator (address %administrator_to_remove) (nat %token_id)) (pair %set_administrator (address
  %administrator_to_set) (nat %token_id)))) (or (list %set_balance (pair (pair %request (address %owner) (nat
  %token_id)) (nat %balance))) (or (pair %set_vesting_contract (address %contract) (nat %duration_in_seconds))
  (unit %withdraw)))))`;
const STORAGE = `
  (pair (pair (pair (big_map %administrators (pair (address %owner) (nat %token_id)) unit) (pair (nat
  %current_balance) (nat %disc_factor))) (pair (pair (nat %dist_factor) (big_map %dist_factors address nat))
  (pair (address %engine_address) (nat %last_balance)))) (pair (pair (address %sender) (pair (big_map %stakes
  address nat) (address %token_address))) (pair (pair (nat %token_id) (nat %total_stake)) (pair (address
  %vesting_contract) (nat %vesting_duration_in_seconds)))))`;

const parse = (text: string): unknown => JSON.parse(JSON.stringify(new Parser().parseMichelineExpression(text)));

export const YOUVES_SAVINGS_V2: KnownCode = {
  name: 'youves savings v2',
  types: ContractTypes.fromJSON({ parameter: parse(PARAMETER), storage: parse(STORAGE), codeHash: null }),
  codeHashes: ['308ae746e5ac686d', 'c02b8bf9dc2bc407'],
  // Not `deposit`/`withdraw`: too many other contracts have them.
  signature: ['internal_deposit', 'internal_withdraw', 'set_vesting_contract'],
};
