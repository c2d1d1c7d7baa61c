import type { GenesisContext } from '../../../../framework/sandbox/extension';
import type { ReservePool } from './ReservePool';

/**
 * Originates a pool empty, as a factory or a deployer does on mainnet before the first deposit: its
 * first liquidity is a real `addLiquidity` of the traffic (`poolCall`, at the depositor's price), so
 * every LP share has an owner the chain shows minting it.
 */
export function seedPool(g: GenesisContext, pool: ReservePool): void {
  g.originate(pool, 0n, (diff) => pool.init(diff, 0n, 0n, 0n));
}
