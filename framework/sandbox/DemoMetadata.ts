import type { SandboxChain } from './SandboxChain';

/**
 * The metadata `alias.kind` of the framework's own contract models; protocol models (DEX pools,
 * farms, lending markets) say theirs (`ContractModel.service`).
 */
const KIND_OF_ROLE: Record<string, string> = {
  'fa1.2': 'token',
  fa2: 'token',
  registry: 'registry',
  ticketer: 'other',
};

/**
 * Metadata entries (as `POST /metadata` takes them) for the demo: an alias and baker terms for every
 * sandbox baker, an alias (and asset for tokens) for every known contract, so `npm start` shows names.
 */
export function demoMetadataEntries(chain: SandboxChain): Array<Record<string, unknown>> {
  const bakers = chain.book.bakers.map((b, i) => ({
    address: b.address,
    alias: { name: `Sandbox Baker ${i + 1}`, kind: 'validator' },
    baker: { status: 'public', fee: Math.round((0.05 + (i % 5) * 0.01) * 100) / 100, min_delegation: 0 },
  }));
  const contracts = chain
    .knownContracts()
    .map((c) => ({
      address: c.address,
      alias: { name: c.name, kind: c.service ?? KIND_OF_ROLE[c.role] ?? 'contract' },
      ...(c.role === 'fa1.2' || c.role === 'fa2' ? { asset: { standard: c.role, symbol: c.name.split(' ')[0] } } : {}),
    }));
  return [...bakers, ...contracts];
}
