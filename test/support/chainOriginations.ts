import { expect } from 'chai';
import type { SandboxChain } from '../../framework/sandbox';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The manager contents of the chain's blocks (level 1 to head) as the node serves them, in chain order. */
export function managerContents(chain: SandboxChain): Json[] {
  const out: Json[] = [];
  for (let level = 1; level <= chain.head.level; level++)
    for (const group of (chain.block(level) as Json).operations[3]) out.push(...group.contents);
  return out;
}

/** The chain's own originations by operations: contract → the source of the manager content that originated it. */
export function originators(chain: SandboxChain): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of managerContents(chain))
    for (const kt of c.metadata.operation_result.originated_contracts ?? []) out.set(kt, c.source);
  return out;
}

/** Every farm or market of an API list names as its creator the account whose operation originated its contract. */
export function expectOriginatorsAsCreators(chain: SandboxChain, pools: Json[]): void {
  const originator = originators(chain);
  expect(pools.map((p) => [p.contract, p.creator])).to.deep.equal(
    pools.map((p) => [p.contract, originator.get(p.contract) ?? 'no origination on the chain']),
  );
}
