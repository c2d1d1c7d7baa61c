import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { Farm } from './Farm';

/**
 * The Plenty ctez/kUSD LP farm: it stakes the LP token the DEX simulator registers under the seed label
 * `plenty-lp` and pays ctez rewards from a bootstrap reserve.
 */
const LABELS = { farm: 'plenty-farm', stakedLp: 'plenty-lp' } as const;

export function registerPlentyFarm(contracts: ContractRegistry, book: AccountBook): void {
  const farm = new Farm(
    book,
    contracts.derivedAddress(LABELS.farm),
    contracts.require(contracts.derivedAddress(LABELS.stakedLp)),
    contracts.require(KNOWN_ADDRESSES.ctez),
  );
  contracts.add(farm, 'Plenty ctez/kUSD LP farm');
}

export const plentyFarm = (contracts: ContractRegistry): Farm =>
  contracts.require(contracts.derivedAddress(LABELS.farm));

export function seedPlentyFarm(g: GenesisContext): void {
  const farm = plentyFarm(g.contracts);
  g.originate(farm, 0n, (diff) => {
    farm.init(diff);
    farm.reward.mint(diff, farm.address, 1_000_000n * TEZ);
  });
}
