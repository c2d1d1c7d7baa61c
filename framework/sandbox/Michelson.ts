import { packDataBytes, type MichelsonData, type MichelsonType } from '@taquito/michel-codec';
import { b58DecodeAddress, encodeExpr } from '@taquito/utils';

/** Micheline JSON as the node prints it. */
export type Micheline =
  | { int: string }
  | { string: string }
  | { bytes: string }
  | { prim: string; args?: Micheline[]; annots?: string[] }
  | Micheline[];

export const unit: Micheline = { prim: 'Unit' };

export function int(n: bigint | number): Micheline {
  return { int: String(n) };
}

export function str(s: string): Micheline {
  return { string: s };
}

export function bytes(hex: string): Micheline {
  return { bytes: hex };
}

export function prim(name: string, args?: Micheline[], annots?: string[]): Micheline {
  const out: { prim: string; args?: Micheline[]; annots?: string[] } = { prim: name };
  if (args) out.args = args;
  if (annots) out.annots = annots;
  return out;
}

export function bool(b: boolean): Micheline {
  return prim(b ? 'True' : 'False');
}

/** Right-combed pair, as Michelson writes `(Pair a (Pair b c))`. */
export function pair(...items: Micheline[]): Micheline {
  if (items.length < 2) throw new Error('pair needs at least two items');
  if (items.length === 2) return prim('Pair', items);
  return prim('Pair', [items[0], pair(...items.slice(1))]);
}

export function left(v: Micheline): Micheline {
  return prim('Left', [v]);
}

export function right(v: Micheline): Micheline {
  return prim('Right', [v]);
}

export function some(v: Micheline): Micheline {
  return prim('Some', [v]);
}

/** Annotated type node: `t('nat', '%amount')`. */
export function t(name: string, annot?: string, ...args: Micheline[]): Micheline {
  return prim(name, args.length ? args : undefined, annot ? [annot] : undefined);
}

/** An address in the node's optimized storage form (22 raw bytes). */
export function addressBytes(address: string): Micheline {
  return bytes(b58DecodeAddress(address));
}

/** `expr…` hash of a value packed at a type: the key_hash of big_map entries and global constants. */
export function scriptExpr(value: Micheline, type?: Micheline): string {
  const data = type ? addressesAsBytes(value, type) : value;
  return encodeExpr(packDataBytes(data as MichelsonData, type as MichelsonType | undefined).bytes);
}

/**
 * Address of a global constant: the `expr…` hash of the value's binary Micheline, which is PACK without
 * its 0x05 tag (the tag is for packed data, and big_map keys are hashed with it).
 */
export function globalConstantAddress(value: Micheline): string {
  return encodeExpr(packDataBytes(value as MichelsonData).bytes.slice(2));
}

/** Bytes a registered global constant takes: its binary expression plus 65 bytes of key (Octez's figure). */
export function globalConstantSize(value: Micheline): number {
  return packedSize(value) + 65;
}

/**
 * michel-codec cannot pack tz4 addresses written as strings; their binary form packs identically,
 * so addresses are converted to bytes (following the type) before packing.
 */
function addressesAsBytes(value: Micheline, type: Micheline): Micheline {
  if (Array.isArray(type) || !('prim' in type)) return value;
  if (type.prim === 'address' && !Array.isArray(value) && 'string' in value) return bytes(b58DecodeAddress(value.string.split('%')[0]));
  if (type.prim === 'pair' && type.args && !Array.isArray(value) && 'prim' in value && value.prim === 'Pair' && value.args) {
    if (type.args.length === 2 && value.args.length === 2)
      return prim('Pair', [addressesAsBytes(value.args[0], type.args[0]), addressesAsBytes(value.args[1], type.args[1])]);
  }
  return value;
}

/** Serialized size in bytes of a value, used for storage accounting. */
export function packedSize(value: Micheline): number {
  return packDataBytes(value as MichelsonData).bytes.length / 2 - 1;
}
