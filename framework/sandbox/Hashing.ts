import type * as Blake2Module from '@noble/hashes/blake2.js' with { 'resolution-mode': 'import' };
import { b58Encode, PrefixV2 } from '@taquito/utils';

// @noble/hashes v2 ships ESM only; this project compiles to CommonJS, so the module is loaded through
// Node's require(esm) support and typed from its declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { blake2b } = require('@noble/hashes/blake2.js') as typeof Blake2Module;

const utf8 = new TextEncoder();

/** Blake2b of the concatenated parts (strings as UTF-8), `length` bytes long, as Tezos hashes everything. */
export function blake2bOf(length: number, ...parts: (Uint8Array | string)[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? utf8.encode(p) : p));
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const buf = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    buf.set(c, off);
    off += c.length;
  }
  return blake2b(buf, { dkLen: length });
}

/** Base58check with a Tezos prefix (B…, o…, tz1…, sig…, …). */
export function b58(payload: Uint8Array, prefix: PrefixV2): string {
  return b58Encode(payload, prefix);
}

export { PrefixV2 };
