import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { QuipuswapPool } from './pool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** QuipuSwap v1's mainnet tez/kUSD pool. */
export const QUIPUSWAP_KUSD = 'KT1K4EwTpbvYN9agJdjpyJm4ZZdhpUNKB3F6';

export function registerQuipuswap(contracts: ContractRegistry, book: AccountBook): void {
  const pool = contracts.add(
    new QuipuswapPool(book, QUIPUSWAP_KUSD, contracts.require(KNOWN_ADDRESSES.kUSD)),
    'QuipuSwap tez/kUSD',
  );
  contracts.addPaidStorageTarget(pool);
}

export const quipuswapPool = (contracts: ContractRegistry): QuipuswapPool => contracts.require(QUIPUSWAP_KUSD);

export function seedQuipuswap(g: GenesisContext): void {
  seedPool(g, quipuswapPool(g.contracts));
}
