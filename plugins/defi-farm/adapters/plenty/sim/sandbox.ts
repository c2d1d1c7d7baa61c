import {
  type AccountBook,
  type ContractRegistry,
  KNOWN_ADDRESSES,
  type LaunchStep,
  modelOrigination,
  tokenTransferContent,
} from '../../../../../framework/sandbox/extension';
import { Farm } from './Farm';
import { farmContent } from './traffic';

/**
 * The Plenty ctez/kUSD LP farm: it stakes the LP token the DEX simulator registers under the seed label
 * `plenty-lp` and pays ctez rewards from the reserve its deployer sends it.
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

/**
 * The deployer originates the farm and funds its rewards with half its ctez, then stakes half the farm's LP it got
 * as an early provider: the farm's first position.
 */
export const launchPlentyFarm: readonly LaunchStep[] = [
  (ctx, deployer) => {
    const farm = plentyFarm(ctx.contracts);
    const reserve = farm.reward.balanceOf(deployer) / 2n;
    return [
      modelOrigination(ctx, deployer, farm, 0n, (diff) => farm.init(diff)),
      tokenTransferContent(ctx, farm.reward, deployer, farm.address, reserve),
    ];
  },
  (ctx, deployer) => {
    const farm = plentyFarm(ctx.contracts);
    const lp = farm.staked.balanceOf(deployer) / 2n;
    return lp > 0n ? [farmContent(ctx, farm, deployer, 'stake', lp)] : [];
  },
];
