import type { BlockContext } from '../BlockContext';
import type { ManagerFamily } from '../profiles';
import { buildContractCall } from './ContractCallFactory';
import { buildAdminOperation } from './AdminFactory';
import { buildDelegation } from './DelegationFactory';
import { buildExtensionCall } from './ExtensionTraffic';
import { buildOrigination } from './OriginationFactory';
import { buildRollupMessage } from './RollupFactory';
import { buildStakingOperation } from './StakingFactory';
import { buildTransfer } from './TransferFactory';

type Builder = (ctx: BlockContext) => Record<string, unknown> | undefined;

const BUILDERS: Record<ManagerFamily, Builder> = {
  transfer: buildTransfer,
  contractCall: buildContractCall,
  defi: buildExtensionCall,
  origination: buildOrigination,
  delegation: buildDelegation,
  staking: buildStakingOperation,
  rollup: buildRollupMessage,
  admin: buildAdminOperation,
};

/** Pass 3 of a block: the extensions' openings, then manager groups drawn from the profile, families by weight. */
export function buildManagerOperations(ctx: BlockContext): Record<string, unknown>[] {
  const { profile, prng } = ctx;
  const { min, max, burst, burstRate } = profile.managerGroups;
  const count = prng.chance(burstRate) ? burst : prng.range(min, max);
  const families = Object.keys(profile.mix) as ManagerFamily[];
  const weights = families.map((f) => profile.mix[f]);
  // The extensions' early work first (it may use sources the draw would otherwise take).
  const out = ctx.extensions.flatMap((e) => e.openings?.(ctx) ?? []);
  for (let i = 0; i < count; i++) {
    const family = families[prng.weighted(weights)];
    // A family with nothing to do right now (no eligible source, no stake to unstake…) falls back to a transfer.
    const group = BUILDERS[family](ctx) ?? buildTransfer(ctx);
    if (group) out.push(group);
  }
  return out;
}
