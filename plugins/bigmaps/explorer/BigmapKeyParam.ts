import { b58DecodeAddress, b58DecodePublicKey, b58DecodePublicKeyHash } from '@taquito/utils';
import { ApiError, columnType, isPrim, ValueError, errorMessage } from '../../../framework';
import { keyHash } from '../KeyHash';

const EXPR_HASH = columnType('hash(expr)');

/**
 * The `{key}` of `/explorer/bigmap/{id}/{key}`: a key hash (`expr…`) or the key itself, written as
 * Micheline JSON or as plain text read with the bigmap's key type (`tz1…`, `42`, `foo`, hex bytes,
 * `true`, RFC3339 or seconds for timestamps; a pair's leaves comma-separated). Answers the key hash.
 */
export function bigmapKeyHash(raw: string, keyType: unknown): string {
  try {
    EXPR_HASH.parse(raw);
    return raw;
  } catch (e) {
    if (!(e instanceof ValueError)) throw e;
  }
  if (keyType === undefined)
    throw ApiError.malformedId(
      `invalid bigmap key '${raw}': the key type of this bigmap is unknown, give the key hash`,
    );
  try {
    const key = raw.startsWith('{') || raw.startsWith('[') ? JSON.parse(raw) : literal(keyType, raw.split(','));
    return keyHash(keyType, key);
  } catch (e) {
    throw ApiError.malformedId(`invalid bigmap key '${raw}': ${errorMessage(e)}`);
  }
}

/** Micheline for comma-separated leaves of a (pair) type; takes exactly as many leaves as the type has. */
function literal(type: unknown, leaves: string[]): unknown {
  const value = build(type, leaves);
  if (leaves.length > 0) throw new Error('more values than the key type has fields');
  return value;
}

function build(type: unknown, leaves: string[]): unknown {
  if (!isPrim(type)) throw new Error('unreadable key type');
  const args = type.args ?? [];
  if (type.prim === 'pair') {
    const [first, ...rest] = args;
    const second = rest.length === 1 ? rest[0] : { prim: 'pair', args: rest };
    return { prim: 'Pair', args: [build(first, leaves), build(second, leaves)] };
  }
  const text = leaves.shift();
  if (text === undefined) throw new Error('fewer values than the key type has fields');
  return scalar(type.prim, text);
}

function scalar(prim: string, text: string): unknown {
  switch (prim) {
    case 'int':
    case 'nat':
    case 'mutez':
      if (!/^-?\d+$/.test(text)) throw new Error(`'${text}' is not an integer`);
      return { int: text };
    case 'timestamp':
      return /^-?\d+$/.test(text) ? { int: text } : { string: text };
    case 'bytes':
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new Error(`'${text}' is not hex bytes`);
      return { bytes: text.toLowerCase() };
    case 'bool':
      if (text !== 'true' && text !== 'false') throw new Error(`'${text}' is not true or false`);
      return { prim: text === 'true' ? 'True' : 'False' };
    case 'unit':
      return { prim: 'Unit' };
    // Addresses and keys in their binary form: the codec cannot pack tz4 addresses and BLS keys written as text.
    case 'address': {
      // An entrypoint follows the 22 bytes of the address.
      const [address, entrypoint] = text.split('%');
      return { bytes: b58DecodeAddress(address) + (entrypoint ? Buffer.from(entrypoint, 'utf8').toString('hex') : '') };
    }
    case 'key_hash':
      return { bytes: b58DecodePublicKeyHash(text) };
    case 'key':
      return { bytes: b58DecodePublicKey(text) };
    case 'string':
    case 'signature':
    case 'chain_id':
      return { string: text };
    default:
      throw new Error(`a ${prim} key cannot be written as text, give Micheline JSON or the key hash`);
  }
}
