import type { AccountBook, ContractRegistry, GenesisContext } from '../../../../../framework/sandbox/extension';
import { Fa12Token, KNOWN_ADDRESSES } from '../../../../../framework/sandbox/extension';
import { FlatCfmm } from './pool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** Seed labels of the sandbox's Youves flat pool (token ctez, cash tzBTC, pegged by the multipliers) and LQT token. */
export const YOUVES_FLAT_LABELS = { pool: 'youves-flat-pool', lqt: 'youves-flat-lqt' } as const;

/** The pool's `rewardRecipient`: a keyless account (blake2b-160 of the label `youves-flat-reward-recipient`). */
export const YOUVES_FLAT_REWARD_RECIPIENT = 'tz1YaAfoyHY53UgtKyLd18rGeEvM4YHDx99c';

export function registerYouvesFlat(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const lqtToken = new Fa12Token(book, contracts.derivedAddress(YOUVES_FLAT_LABELS.lqt), 'FLAT-LQT', 8, errorPrefix);
  const lqt = contracts.add(lqtToken, 'Youves flat ctez/tzBTC LQT');
  const address = contracts.derivedAddress(YOUVES_FLAT_LABELS.pool);
  const [token, cash] = [KNOWN_ADDRESSES.ctez, KNOWN_ADDRESSES.tzBTC].map((a) => contracts.require<Fa12Token>(a));
  const pool = new FlatCfmm(book, address, token, lqt, cash, YOUVES_FLAT_REWARD_RECIPIENT);
  contracts.add(pool, 'Youves flat ctez/tzBTC');
}

export const youvesFlatPool = (contracts: ContractRegistry): FlatCfmm =>
  contracts.require(contracts.derivedAddress(YOUVES_FLAT_LABELS.pool));

/** The LQT token first (the pool's seed mints it), then the pool: 400,000 ctez against 400,000 tzBTC. */
export function seedYouvesFlat(g: GenesisContext): void {
  const lqt = g.contracts.require<Fa12Token>(g.contracts.derivedAddress(YOUVES_FLAT_LABELS.lqt));
  g.originate(lqt, 0n, (diff) => lqt.init(diff));
  seedPool(g, youvesFlatPool(g.contracts));
}
