import {
  type AccountBook,
  type ContractRegistry,
  type GenesisContext,
  KNOWN_ADDRESSES,
} from '../../../../../framework/sandbox/extension';
import { LendingMarket } from './LendingMarket';

const LABEL = 'yupana';

/** A Yupana-style market over kUSD, tzBTC and ctez (token ids 0, 1, 2). */
export function registerYupana(contracts: ContractRegistry, book: AccountBook): void {
  const tokens = [KNOWN_ADDRESSES.kUSD, KNOWN_ADDRESSES.tzBTC, KNOWN_ADDRESSES.ctez].map((a) => contracts.require(a));
  contracts.add(
    new LendingMarket(book, contracts.derivedAddress(LABEL), tokens as LendingMarket['markets']),
    'Yupana-style lending',
  );
}

export const yupanaMarket = (contracts: ContractRegistry): LendingMarket =>
  contracts.require(contracts.derivedAddress(LABEL));

/**
 * Each market starts with deep liquidity so borrows have something to take: a supply the contract itself holds the
 * yTokens of.
 */
export function seedYupana(g: GenesisContext): void {
  const market = yupanaMarket(g.contracts);
  g.originate(market, 0n, (diff) => {
    market.init(diff);
    market.markets.forEach((token, id) => {
      const amount = 10n ** BigInt(token.decimals + 6);
      token.mint(diff, market.address, amount);
      market.seed(diff, id, amount);
    });
  });
}
