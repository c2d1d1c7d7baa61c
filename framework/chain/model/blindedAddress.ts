import type * as Blake2Module from '@noble/hashes/blake2.js' with { 'resolution-mode': 'import' };
import { b58DecodeAndCheckPrefix, b58Encode, PrefixV2 } from '@taquito/utils';

// @noble/hashes v2 ships ESM only; the project compiles to CommonJS, so it is loaded through Node's
// require(esm) support (Node ≥ 20.19) and typed from its declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { blake2b } = require('@noble/hashes/blake2.js') as typeof Blake2Module;

/**
 * The fundraiser (blinded, `btz1…`) address an `activate_account` unlocks: the 20-byte blake2b of the
 * public key hash keyed with the activation secret. `undefined` when the inputs are not valid.
 */
export function blindedAddress(pkh: string, secretHex: string): string | undefined {
  if (!/^([0-9a-fA-F]{2})+$/.test(secretHex)) return undefined;
  try {
    // Fundraiser accounts are always tz1; other prefixes throw and yield undefined.
    const hash = b58DecodeAndCheckPrefix(pkh, [PrefixV2.Ed25519PublicKeyHash], true);
    const key = Uint8Array.from(Buffer.from(secretHex, 'hex'));
    return b58Encode(blake2b(hash, { dkLen: 20, key }), PrefixV2.BlindedPublicKeyHash);
  } catch {
    return undefined;
  }
}
