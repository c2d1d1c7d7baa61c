import type { Account } from '../AccountBook';
import type { BlockContext } from '../BlockContext';

/**
 * Picks an implicit account that has not sent a manager operation in this block yet and passes `accept`
 * (enough balance, a delegate…). A few random draws, then a scan, so the choice stays cheap and
 * deterministic on large books.
 */
export function pickSource(ctx: BlockContext, accept: (a: Account) => boolean, scan = true): Account | undefined {
  const all = ctx.book.allAddresses();
  const ok = (address: string) => {
    if (ctx.usedSources.has(address)) return false;
    const a = ctx.book.get(address);
    return a.kind !== undefined && a.publicKey !== '' && accept(a);
  };
  for (let i = 0; i < 12; i++) {
    const address = all[ctx.prng.int(all.length)];
    if (ok(address)) return ctx.book.get(address);
  }
  // Costly predicates (token balances) skip the scan: a miss then just means "nothing to do".
  if (!scan) return undefined;
  const start = ctx.prng.int(all.length);
  for (let i = 0; i < all.length; i++) {
    const address = all[(start + i) % all.length];
    if (ok(address)) return ctx.book.get(address);
  }
  return undefined;
}

/** Any implicit account other than `except`. */
export function pickImplicit(ctx: BlockContext, except: string): string | undefined {
  const all = ctx.book.allAddresses();
  for (let i = 0; i < 16; i++) {
    const address = all[ctx.prng.int(all.length)];
    if (address !== except && ctx.book.get(address).kind !== undefined) return address;
  }
  return undefined;
}

/** A positive amount, log-uniform between `min` and `max` mutez, so small transfers dominate like on mainnet. */
export function logAmount(ctx: BlockContext, min: bigint, max: bigint): bigint {
  if (max <= min) return min;
  const lo = Math.log(Number(min));
  const hi = Math.log(Number(max));
  const v = BigInt(Math.floor(Math.exp(lo + ctx.prng.float() * (hi - lo))));
  return v < min ? min : v > max ? max : v;
}

export const TEZ = 1_000_000n;
