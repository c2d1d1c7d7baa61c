import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { DexterPool } from './pool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** Seed label of the sandbox's Dexter v1 tez/tzBTC pool (shares in its own `accounts` big map). */
export const DEXTER_LABEL = 'dexter-tzbtc';

export function registerDexter(contracts: ContractRegistry, book: AccountBook): void {
  const pool = contracts.add(
    new DexterPool(book, contracts.derivedAddress(DEXTER_LABEL), contracts.require(KNOWN_ADDRESSES.tzBTC)),
    'Dexter tez/tzBTC',
  );
  contracts.addPaidStorageTarget(pool);
}

export const dexterPool = (contracts: ContractRegistry): DexterPool =>
  contracts.require(contracts.derivedAddress(DEXTER_LABEL));

export function seedDexter(g: GenesisContext): void {
  seedPool(g, dexterPool(g.contracts));
}
