/** The account table's `address_type` by address prefix. */
const TYPES: ReadonlyArray<[prefix: string, type: string]> = [
  ['tz1', 'ed25519'],
  ['tz2', 'secp256k1'],
  ['tz3', 'p256'],
  ['tz4', 'bls12_381'],
  ['KT1', 'contract'],
  ['btz1', 'blinded'],
  ['txr1', 'tx_rollup'],
  ['sr1', 'smart_rollup'],
];

/** The address kind, or undefined for addresses the account table has no kind for (e.g. zk rollups). */
export function addressType(address: string): string | undefined {
  return TYPES.find(([prefix]) => address.startsWith(prefix))?.[1];
}

const IMPLICIT = new Set(['ed25519', 'secp256k1', 'p256', 'bls12_381']);

/** tz1…tz4: accounts controlled by a key. */
export function isImplicitType(type: string): boolean {
  return IMPLICIT.has(type);
}
