import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { CpmmPool } from '../../../sim/cpmm/CpmmPool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** Seed label of the sandbox's Dexter v1 tez/tzBTC pool (shares in its own `accounts` big map). */
export const DEXTER_LABEL = 'dexter-tzbtc';

export function registerDexter(contracts: ContractRegistry, book: AccountBook): void {
  const pool = contracts.add(
    new CpmmPool(
      book,
      contracts.derivedAddress(DEXTER_LABEL),
      'dexter_v1',
      contracts.require(KNOWN_ADDRESSES.tzBTC),
      undefined,
      undefined,
    ),
    'Dexter tez/tzBTC',
  );
  contracts.addPaidStorageTarget(pool);
}

export const dexterPool = (contracts: ContractRegistry): CpmmPool =>
  contracts.require(contracts.derivedAddress(DEXTER_LABEL));

export function seedDexter(g: GenesisContext): void {
  seedPool(g, dexterPool(g.contracts));
}
