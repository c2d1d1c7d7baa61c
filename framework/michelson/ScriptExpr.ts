import { packDataBytes, type MichelsonData, type MichelsonType } from '@taquito/michel-codec';
import { b58DecodeAddress, encodeExpr } from '@taquito/utils';
import { isPrim } from './Michelson';

/**
 * The `expr…` hash of a value PACKed at its type: big map key hashes (`key_hash`) and the node's
 * script expression ids. The one implementation for the indexer and the sandbox. Throws when the
 * value does not fit the type.
 */
export function scriptExpr(value: unknown, type?: unknown): string {
  const data = type === undefined ? value : addressesAsBytes(value, type);
  return encodeExpr(packDataBytes(data as MichelsonData, type as MichelsonType | undefined).bytes);
}

/**
 * michel-codec cannot pack tz4 addresses written as strings; their binary form packs identically,
 * so addresses are converted to bytes (following the type) before packing.
 */
function addressesAsBytes(value: unknown, type: unknown): unknown {
  if (!isPrim(type)) return value;
  const s = (value as { string?: unknown }).string;
  if (type.prim === 'address' && typeof s === 'string') return { bytes: b58DecodeAddress(s.split('%')[0]) };
  if (
    type.prim === 'pair' &&
    type.args?.length === 2 &&
    isPrim(value) &&
    value.prim === 'Pair' &&
    value.args?.length === 2
  ) {
    return {
      prim: 'Pair',
      args: [addressesAsBytes(value.args[0], type.args[0]), addressesAsBytes(value.args[1], type.args[1])],
    };
  }
  return value;
}
