import {
  type AccountBook,
  type ContractRegistry,
  Fa12Token,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { PlentyPool } from './pool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** Seed labels of the Plenty ctez/kUSD volatile pool and its LP token (the Plenty farm stakes that token). */
export const PLENTY_LABELS = { pool: 'plenty-pool', lp: 'plenty-lp' } as const;

export function registerPlenty(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const lp = contracts.add(
    new Fa12Token(book, contracts.derivedAddress(PLENTY_LABELS.lp), 'CTEZ-KUSD-LP', 6, errorPrefix),
    'Plenty ctez/kUSD LP',
  );
  const pool = new PlentyPool(
    book,
    contracts.derivedAddress(PLENTY_LABELS.pool),
    contracts.require<Fa12Token>(KNOWN_ADDRESSES.ctez),
    lp,
    contracts.require<Fa12Token>(KNOWN_ADDRESSES.kUSD),
  );
  contracts.add(pool, 'Plenty ctez/kUSD');
}

export const plentyPool = (contracts: ContractRegistry): PlentyPool =>
  contracts.require(contracts.derivedAddress(PLENTY_LABELS.pool));

export function originatePlentyLp(g: GenesisContext): void {
  const lp = g.contracts.require<Fa12Token>(g.contracts.derivedAddress(PLENTY_LABELS.lp));
  g.originate(lp, 0n, (diff) => lp.init(diff));
}

export function seedPlenty(g: GenesisContext): void {
  seedPool(g, plentyPool(g.contracts));
}
