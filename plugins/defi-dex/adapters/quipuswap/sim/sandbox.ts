import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { CpmmPool } from '../../../sim/cpmm/CpmmPool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** QuipuSwap v1's mainnet tez/kUSD pool. */
export const QUIPUSWAP_KUSD = 'KT1K4EwTpbvYN9agJdjpyJm4ZZdhpUNKB3F6';

export function registerQuipuswap(contracts: ContractRegistry, book: AccountBook): void {
  const pool = contracts.add(
    new CpmmPool(book, QUIPUSWAP_KUSD, 'quipuswap_v1', contracts.require(KNOWN_ADDRESSES.kUSD), undefined, undefined),
    'QuipuSwap tez/kUSD',
  );
  contracts.addPaidStorageTarget(pool);
}

export const quipuswapPool = (contracts: ContractRegistry): CpmmPool => contracts.require(QUIPUSWAP_KUSD);

export function seedQuipuswap(g: GenesisContext): void {
  seedPool(g, quipuswapPool(g.contracts));
}
