import { b58, blake2bOf, PrefixV2 } from './Hashing';
import type { Prng } from './Prng';

export type ImplicitKind = 'tz1' | 'tz2' | 'tz3' | 'tz4';

export interface KeyPair {
  address: string;
  publicKey: string;
  kind: ImplicitKind;
}

// Raw public key sizes and prefixes per curve; the address is blake2b-160 of the raw key, as on chain.
const CURVES: Record<ImplicitKind, { pkLength: number; pk: PrefixV2; pkh: PrefixV2; sig: PrefixV2 }> = {
  tz1: {
    pkLength: 32,
    pk: PrefixV2.Ed25519PublicKey,
    pkh: PrefixV2.Ed25519PublicKeyHash,
    sig: PrefixV2.GenericSignature,
  },
  tz2: {
    pkLength: 33,
    pk: PrefixV2.Secp256k1PublicKey,
    pkh: PrefixV2.Secp256k1PublicKeyHash,
    sig: PrefixV2.GenericSignature,
  },
  tz3: { pkLength: 33, pk: PrefixV2.P256PublicKey, pkh: PrefixV2.P256PublicKeyHash, sig: PrefixV2.GenericSignature },
  tz4: {
    pkLength: 48,
    pk: PrefixV2.BLS12_381PublicKey,
    pkh: PrefixV2.BLS12_381PublicKeyHash,
    sig: PrefixV2.BLS12_381Signature,
  },
};

export function newKeyPair(prng: Prng, kind: ImplicitKind): KeyPair {
  const curve = CURVES[kind];
  const raw = prng.bytes(curve.pkLength);
  // Compressed secp256k1 / P-256 keys start with the parity byte 02 or 03.
  if (curve.pkLength === 33) raw[0] = 2 + (raw[0] & 1);
  return { kind, publicKey: b58(raw, curve.pk), address: b58(blake2bOf(20, raw), curve.pkh) };
}

/** KT1 address of the `index`-th origination of an operation, derived like the protocol's origination nonce. */
export function originatedAddress(operationDigest: Uint8Array, index: number): string {
  const nonce = new Uint8Array(4);
  new DataView(nonce.buffer).setUint32(0, index);
  return b58(blake2bOf(20, operationDigest, nonce), PrefixV2.ContractHash);
}

/** A signature of the right family for the signer's curve (BLS signers sign with BLsig…). */
export function signatureFor(prng: Prng, kind: ImplicitKind): string {
  return kind === 'tz4'
    ? b58(prng.bytes(96), PrefixV2.BLS12_381Signature)
    : b58(prng.bytes(64), PrefixV2.GenericSignature);
}

export function implicitKindOf(address: string): ImplicitKind | undefined {
  const p = address.slice(0, 3);
  return p === 'tz1' || p === 'tz2' || p === 'tz3' || p === 'tz4' ? p : undefined;
}
