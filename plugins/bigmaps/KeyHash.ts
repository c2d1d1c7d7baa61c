import { MichelsonData, MichelsonType, packDataBytes } from '@taquito/michel-codec';
import { b58DecodeAndCheckPrefix, encodeExpr, PrefixV2 } from '@taquito/utils';

/**
 * The `expr…` hash of a bigmap key: blake2b-256 of the key PACKed at the key type, which is the
 * node's `key_hash`. Throws when the key does not fit the type.
 */
export function keyHash(keyType: unknown, key: unknown): string {
  return encodeExpr(packDataBytes(key as MichelsonData, keyType as MichelsonType).bytes);
}

/** `key_id`: the first 8 bytes of a key hash's digest as a signed big-endian integer. */
export function keyId(hash: string): bigint {
  const [digest] = b58DecodeAndCheckPrefix(hash, [PrefixV2.ScriptExpr]);
  return Buffer.from(digest).readBigInt64BE(0);
}
