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
