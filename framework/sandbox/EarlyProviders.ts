import type { Account } from './AccountBook';
import type { BlockContext } from './BlockContext';
import type { GenesisContext } from './SandboxExtension';

/**
 * Why: mainnet pools are opened and filled by their first providers' deposits before trading starts, and
 * farms stake the LP shares those deposits mint. The sandbox's pools are originated empty, so the first
 * holders deposit into every pool in the first blocks (`openings`), whatever traffic a test keeps: a
 * farm-only chain still has LP holders, and every LP share was minted by an operation.
 */
/** How many of the first token holders provide (the genesis LP holders were the first 8 before). */
const PROVIDERS = 8;
/** The first block with manager operations (level 1 is the activation block). */
export const FIRST_LEVEL = 2;

/** A deposit of `source` into one pool (its opening one when the pool is empty); undefined when it cannot. */
export type Provide = (ctx: BlockContext, source: Account) => Record<string, unknown> | undefined;

/** Genesis: the providers are the first token holders. */
export function chooseProviders(g: GenesisContext, plugin: string): void {
  g.book.setVar(`${plugin}:early-providers`, g.holders.slice(0, PROVIDERS));
}

/**
 * The providers' deposits of one block. The pools go in waves of n (the providers' count): in the k-th block of
 * its wave, pool i gets provider (k + i) mod n, so after n blocks every provider has deposited into every pool
 * of the wave, with one group per provider and block.
 */
export function earlyDeposits(ctx: BlockContext, plugin: string, pools: readonly Provide[]): Record<string, unknown>[] {
  const providers = ctx.book.getVar<readonly string[]>(`${plugin}:early-providers`, []);
  const n = providers.length;
  const round = ctx.level - FIRST_LEVEL;
  if (n === 0 || round < 0) return [];
  return pools.flatMap((provide, i): Record<string, unknown>[] => {
    if (Math.floor(i / n) !== Math.floor(round / n)) return [];
    const user = providers[(round + i) % n];
    const group = ctx.usedSources.has(user) ? undefined : provide(ctx, ctx.book.get(user));
    return group ? [group] : [];
  });
}
