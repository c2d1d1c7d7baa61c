import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { b58DecodeAddress, encodeExpr } from '@taquito/utils';

import type { Micheline } from '../michelson/PlainMicheline';

export type { Micheline };

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
  // The node leaves out an empty argument list (`bool %flag` has no `args`), and so must a model's script.
  if (args?.length) out.args = args;
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

/** The items of a right-combed `Pair` value, nested pairs flattened: `Pair a (Pair b c)` → [a, b, c]. */
export function combItems(v: Micheline): Micheline[] {
  return !Array.isArray(v) && 'prim' in v && v.prim === 'Pair' ? (v.args ?? []).flatMap(combItems) : [v];
}

/** The number of an `{ int }` value. */
export function intOf(v: Micheline): bigint {
  if (Array.isArray(v) || !('int' in v)) throw new Error(`sandbox: not an int: ${JSON.stringify(v)}`);
  return BigInt(v.int);
}

/** The text of a `{ string }` value. */
export function stringOf(v: Micheline): string {
  if (Array.isArray(v) || !('string' in v)) throw new Error(`sandbox: not a string: ${JSON.stringify(v)}`);
  return v.string;
}

/** A type node with its field annotation replaced: `annotated(pairT(…), '%handle')`. */
export function annotated(type: Micheline, annot: string): Micheline {
  if (Array.isArray(type) || !('prim' in type)) throw new Error('sandbox: only a type node takes an annotation');
  return { ...type, annots: [annot] };
}

/** Annotated type node: `t('nat', '%amount')`. */
export function t(name: string, annot?: string, ...args: Micheline[]): Micheline {
  return prim(name, args.length ? args : undefined, annot ? [annot] : undefined);
}

/** An address in the node's optimized storage form (22 raw bytes). */
export function addressBytes(address: string): Micheline {
  return bytes(b58DecodeAddress(address));
}

export { scriptExpr } from '../michelson/ScriptExpr';

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

/** Serialized size in bytes of a value, used for storage accounting. */
export function packedSize(value: Micheline): number {
  return packDataBytes(value as MichelsonData).bytes.length / 2 - 1;
}
