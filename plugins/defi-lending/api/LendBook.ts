import { type DexTable, SidedPool, SidedPoolBook, type TokenBook } from '../../../framework/defi';

// A lending market names a debt and a collateral token: the DeFi areas' two-sided pool book serves it unchanged.
export type LendInfo = SidedPool<'debt' | 'collateral'>;
export type LendBook = SidedPoolBook<'debt' | 'collateral'>;

export const lendBook = (pools: DexTable, tokens: TokenBook): LendBook =>
  new SidedPoolBook(pools, tokens, ['debt', 'collateral'], 'lending pool');
