import type { IndexContext } from '../index';

/**
 * Who originated a contract, from core-chain's `contract` row (which every DeFi plugin depends on):
 * what a pool, farm or market names as its creator when the adapter did not see a creation call.
 * Null when unknown: contracts created at genesis or by migrations have no originator.
 */
export async function contractCreator(ctx: IndexContext, address: string): Promise<string | null> {
  const creator = (await ctx.entities('contract', 'address').get(address))?.creator;
  return typeof creator === 'string' && creator !== '' ? creator : null;
}
