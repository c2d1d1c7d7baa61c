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
 * Each owner's change of an `address → nat` ledger big map, read from the raw big map diffs of the
 * canonical blocks from `fromLevel` on, the diffs of group `except` aside (the call a pool was first
 * met in, whose shares are in no position).
 */
export function ledgerChanges(chain: SandboxChain, ledgerId: number, fromLevel: number, except: string): Map<string, bigint> {
  const want = new Map<string, bigint>();
  const ledger = new Map<string, bigint>();
  for (const b of canonical(chain)) {
    for (const o of b.operations) {
      for (const d of o.bigMapDiffs ?? []) {
        if (d.bigMapId !== ledgerId || (d.action !== 'update' && d.action !== 'remove') || !d.key) continue;
        const owner = (d.key as { string: string }).string;
        const now = d.action === 'update' ? BigInt((d.value as { int: string }).int) : 0n;
        if (b.level >= fromLevel && o.hash !== except) want.set(owner, (want.get(owner) ?? 0n) + now - (ledger.get(owner) ?? 0n));
        ledger.set(owner, now);
      }
    }
  }
  return want;
}
