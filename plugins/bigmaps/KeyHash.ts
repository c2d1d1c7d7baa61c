import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { scriptExpr } from '../../framework';

/**
 * The `expr…` hash of a bigmap key: blake2b-256 of the key PACKed at the key type, which is the
 * node's `key_hash`. Throws when the key does not fit the type.
 */
export function keyHash(keyType: unknown, key: unknown): string {
  return scriptExpr(key, keyType);
}

/**
 * `key_id`: the first 63 bits of a key hash's digest (big-endian), so it is never negative: clients
 * read it as a uint64 (the TzPro SDK), and Postgres stores it as bigint.
 */
export function keyId(hash: string): bigint {
  const [digest] = b58DecodeAndCheckPrefix(hash, [PrefixV2.ScriptExpr]);
  return Buffer.from(digest).readBigUInt64BE(0) >> 1n;
}
