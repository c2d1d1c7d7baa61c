import type { NormalizedOperation } from '../../../framework/chain';
import type { SandboxChain } from '../../../framework/sandbox';
import { canonical } from '../../support/IndexHarness';

/** The first `n` ints of a raw Micheline storage, in order (pool reserves as the node prints them). */
export function leadingInts(storage: unknown, n = 3): bigint[] {
  const ints: bigint[] = [];
  const walk = (v: unknown): void => {
    if (ints.length >= n || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const node = v as { int?: string; args?: unknown[] };
    if (node.int !== undefined) ints.push(BigInt(node.int));
    else node.args?.forEach(walk);
  };
  walk(storage);
  return ints;
}

/** Applied calls (with a storage) of a contract on the canonical chain, in order. */
export function callsTo(chain: SandboxChain, contract: string): NormalizedOperation[] {
  return canonical(chain)
    .flatMap((b) => b.operations)
    .filter((o) => o.receiver === contract && o.hash !== '' && o.isSuccess && o.storage !== undefined);
}

/**
 * Each owner's change of an LP token's ledger (its raw big map diffs) from the block of a pool's
 * first call on, that call included: a pool first met at a call starts there, and the adapters that
 * read shares from the LP token's mints and burns (or Dexter's mint rule) count that call's too. The
 * ledger is the token storage's first int (big map id); `lpToken` is the pool itself when the pool
 * keeps the ledger (Dexter v1's `accounts`).
 */
export function ledgerChanges(
  chain: SandboxChain,
  lpToken: string,
  firstCall: NormalizedOperation,
): Map<string, bigint> {
  const blocks = canonical(chain);
  const tokenCall = blocks.flatMap((b) => b.operations).find((o) => o.receiver === lpToken && o.storage !== undefined)!;
  const ledgerId = Number(leadingInts(tokenCall.storage, 1)[0]);
  const firstLevel = blocks.find((b) => b.operations.some((o) => o.hash === firstCall.hash))!.level;
  return ledgerDiffs(chain, ledgerId, firstLevel);
}

/**
 * Each owner's change of an `address → balance` ledger big map, read from the raw big map diffs of
 * the canonical blocks from `fromLevel` on, the diffs of group `except` aside (for adapters that put
 * the call a pool was first met in in no position). The balance is the value (FA1.2/FA2 ledgers) or
 * its first int (Dexter v1's accounts: balance, allowances).
 */
export function ledgerDiffs(
  chain: SandboxChain,
  ledgerId: number,
  fromLevel: number,
  except?: string,
): Map<string, bigint> {
  const want = new Map<string, bigint>();
  const ledger = new Map<string, bigint>();
  for (const b of canonical(chain)) {
    for (const o of b.operations) {
      for (const d of o.bigMapDiffs ?? []) {
        if (d.bigMapId !== ledgerId || (d.action !== 'update' && d.action !== 'remove') || !d.key) continue;
        const owner = (d.key as { string: string }).string;
        const now = d.action === 'update' ? leadingInts(d.value, 1)[0] : 0n;
        if (b.level >= fromLevel && o.hash !== except)
          want.set(owner, (want.get(owner) ?? 0n) + now - (ledger.get(owner) ?? 0n));
        ledger.set(owner, now);
      }
    }
  }
  return want;
}
