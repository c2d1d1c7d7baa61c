import { type DexTable, SidedPool, SidedPoolBook, type TokenBook } from '../../../framework/defi';

// A farm names a stake and a reward token: the DeFi areas' two-sided pool book serves it unchanged.
export type FarmInfo = SidedPool<'stake' | 'reward'>;
export type FarmBook = SidedPoolBook<'stake' | 'reward'>;

export const farmBook = (farms: DexTable, tokens: TokenBook): FarmBook =>
  new SidedPoolBook(farms, tokens, ['stake', 'reward'], 'farm', { total_stake: '0' });
