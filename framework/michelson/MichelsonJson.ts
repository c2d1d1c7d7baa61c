import { b58Encode, encodeAddress, encodeKey, encodeKeyHash, PrefixV2 } from '@taquito/utils';
import { isPrim } from './Michelson';

/** A Micheline node of a type or value (the node's JSON form). */
export interface Prim {
  prim: string;
  args?: unknown[];
  annots?: string[];
}

/** The field annotation (`%name`) of a type node. */
export function fieldName(type: unknown): string | undefined {
  const annot = isPrim(type) ? type.annots?.find((a) => a.startsWith('%')) : undefined;
  return annot === undefined ? undefined : annot.slice(1);
}

/**
 * The two sides of a pair type or value: n-ary `pair a b c`, `Pair a b c` and sequences `{a; b; c}` are right combs.
 */
export function pairSides(node: unknown): [unknown, unknown] | undefined {
  const items = Array.isArray(node)
    ? node
    : isPrim(node) && (node.prim === 'pair' || node.prim === 'Pair')
      ? node.args
      : undefined;
  if (!items || items.length < 2) return undefined;
  if (items.length === 2) return [items[0], items[1]];
  const rest = Array.isArray(node) ? items.slice(1) : { prim: (node as Prim).prim, args: items.slice(1) };
  return [items[0], rest];
}

/** What a record field or union variant is called: its field annotation, else its type annotation (`:from`). */
export function memberName(type: unknown): string | undefined {
  const annot = isPrim(type) ? type.annots?.find((a) => a.startsWith(':')) : undefined;
  return fieldName(type) ?? (annot === undefined ? undefined : annot.slice(1));
}

/**
 * The fields of a record type: the leaves of nested pairs, where an inner pair without a field
 * annotation is flattened into its parent (how Michelson writes records). Each field keeps its
 * path from the root (0 = left, 1 = right) so values can be taken apart the same way.
 */
export function recordFields(type: unknown): Array<{ name: string; type: unknown; path: number[] }> {
  const out: Array<{ name: string; type: unknown; path: number[] }> = [];
  const walk = (t: unknown, path: number[], root: boolean): void => {
    const sides = isPrim(t) && t.prim === 'pair' && (root || fieldName(t) === undefined) ? pairSides(t) : undefined;
    if (sides) {
      walk(sides[0], [...path, 0], false);
      walk(sides[1], [...path, 1], false);
    } else {
      out.push({ name: memberName(t) ?? String(out.length), type: t, path });
    }
  };
  walk(type, [], true);
  const seen = new Map<string, number>();
  for (const f of out) {
    const n = seen.get(f.name) ?? 0;
    seen.set(f.name, n + 1);
    if (n > 0) f.name = `${f.name}_${n}`;
  }
  return out;
}

/**
 * How leaves are written out. The one decoder below serves two forms: JSON for the explorer
 * (integers as decimal strings) and plain values for indexing handlers (integers as bigint).
 */
export interface ValueRendering {
  integer(decimal: string): unknown;
  bigMap(id: string): unknown;
  timestamp(seconds: string): unknown;
  /** A timestamp written as RFC 3339 text (parameters and untyped storage may use either form). */
  timestampText(text: string): unknown;
  bytes(hex: string): unknown;
  /** Maps: an object keyed by the scalar key, or a JS Map. */
  map(entries: Array<{ key: unknown; value: unknown }>, scalarKeys: boolean): unknown;
  /** Throw at the first part that does not match its type instead of keeping it Micheline. */
  strict?: boolean;
}

const JSON_RENDERING: ValueRendering = {
  integer: (d) => d,
  bigMap: (id) => Number(id),
  timestamp: (s) => timestamp(s),
  timestampText: (t) => t,
  bytes: (hex) => hex,
  map: (entries, scalarKeys) =>
    scalarKeys ? Object.fromEntries(entries.map((e) => [String(e.key), e.value])) : entries,
};

/**
 * A Michelson value as plain JSON, read with its type: records (pairs) become objects keyed by field
 * or type annotation (position when unnamed), `or` becomes `{branch: value}`, options null or the value,
 * lists and sets arrays, maps objects (arrays of `{key, value}` for non-scalar keys), big map ids
 * numbers, integers and mutez decimal strings, timestamps RFC3339, addresses and keys base58 (from
 * strings or bytes), bytes hex. Lambdas, operations, tickets and other opaque values stay Micheline,
 * and so does any part that does not match its type.
 */
export function typedValue(type: unknown, value: unknown): unknown {
  return decodeWith(JSON_RENDERING, type, value);
}

/** The decoder with a rendering of leaves: a part that does not match its type stays Micheline (throws when strict). */
export function decodeWith(r: ValueRendering, type: unknown, value: unknown): unknown {
  try {
    return decode(r, type, value);
  } catch (e) {
    if (r.strict) throw e;
    return value;
  }
}

class Mismatch extends Error {}

function decode(r: ValueRendering, type: unknown, value: unknown): unknown {
  if (!isPrim(type)) throw new Mismatch();
  const args = type.args ?? [];
  switch (type.prim) {
    case 'pair': {
      const out: Record<string, unknown> = {};
      for (const f of recordFields(type)) out[f.name] = decodeWith(r, f.type, at(value, f.path));
      return out;
    }
    case 'or':
      return union(r, type, value);
    case 'option':
      if (isPrim(value) && value.prim === 'None') return null;
      if (isPrim(value) && value.prim === 'Some' && value.args?.length === 1)
        return decodeWith(r, args[0], value.args[0]);
      throw new Mismatch();
    case 'list':
    case 'set':
      return sequence(value).map((v) => decodeWith(r, args[0], v));
    case 'map':
    case 'big_map':
      if (type.prim === 'big_map' && isInt(value)) return r.bigMap(value.int);
      return mapValue(r, args[0], args[1], sequence(value));
    case 'int':
    case 'nat':
    case 'mutez':
      if (isInt(value)) return r.integer(value.int);
      throw new Mismatch();
    case 'string':
      return stringOf(value);
    case 'bytes':
      return r.bytes(bytesOf(value));
    case 'bool':
      if (isPrim(value) && (value.prim === 'True' || value.prim === 'False')) return value.prim === 'True';
      throw new Mismatch();
    case 'unit':
      if (isPrim(value) && value.prim === 'Unit') return null;
      throw new Mismatch();
    case 'timestamp':
      if (isInt(value)) return r.timestamp(value.int);
      return r.timestampText(stringOf(value));
    case 'address':
    case 'contract':
      return hasBytes(value) ? addressFromBytes(value.bytes) : stringOf(value);
    case 'key_hash':
      return hasBytes(value) ? encodeKeyHash(value.bytes) : stringOf(value);
    case 'key':
      return hasBytes(value) ? encodeKey(value.bytes) : stringOf(value);
    case 'chain_id':
      return hasBytes(value) ? b58Encode(value.bytes, PrefixV2.ChainID) : stringOf(value);
    case 'signature':
      return hasBytes(value) ? value.bytes : stringOf(value);
    default:
      // lambda, operation, ticket, sapling, bls12_381_*, chest, never: no plain JSON form.
      return value;
  }
}

/** The value at a record field's path (0 = left side, 1 = right side of each pair). */
function at(value: unknown, path: readonly number[]): unknown {
  let v = value;
  for (const side of path) {
    const sides = pairSides(v);
    if (!sides) throw new Mismatch();
    v = sides[side];
  }
  return v;
}

/** `{name: value}` for the chosen leaf of nested `or`s: its field annotation, else its L/R path. */
function union(r: ValueRendering, type: Prim, value: unknown): unknown {
  let t: unknown = type;
  let v = value;
  let path = '';
  while (isPrim(t) && t.prim === 'or' && (path === '' || fieldName(t) === undefined)) {
    if (!isPrim(v) || (v.prim !== 'Left' && v.prim !== 'Right') || v.args?.length !== 1) throw new Mismatch();
    const left = v.prim === 'Left';
    t = t.args?.[left ? 0 : 1];
    v = v.args[0];
    path += left ? 'L' : 'R';
  }
  return { [memberName(t) ?? path]: decodeWith(r, t, v) };
}

const SCALAR_KEYS = new Set([
  'string',
  'int',
  'nat',
  'mutez',
  'bytes',
  'address',
  'key_hash',
  'key',
  'timestamp',
  'bool',
  'chain_id',
]);

function mapValue(r: ValueRendering, keyType: unknown, valueType: unknown, items: unknown[]): unknown {
  const entries = items.map((item) => {
    if (!isPrim(item) || item.prim !== 'Elt' || item.args?.length !== 2) throw new Mismatch();
    return { key: decodeWith(r, keyType, item.args[0]), value: decodeWith(r, valueType, item.args[1]) };
  });
  return r.map(entries, isPrim(keyType) && SCALAR_KEYS.has(keyType.prim));
}

function sequence(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Mismatch();
  return value;
}

function isInt(v: unknown): v is { int: string } {
  return typeof v === 'object' && v !== null && typeof (v as { int?: unknown }).int === 'string';
}

function hasBytes(v: unknown): v is { bytes: string } {
  return typeof v === 'object' && v !== null && typeof (v as { bytes?: unknown }).bytes === 'string';
}

function stringOf(v: unknown): string {
  if (typeof v === 'object' && v !== null && typeof (v as { string?: unknown }).string === 'string')
    return (v as { string: string }).string;
  throw new Mismatch();
}

function bytesOf(v: unknown): string {
  if (hasBytes(v)) return v.bytes;
  throw new Mismatch();
}

/** An address in its 22-byte binary form, followed by an entrypoint name when it has one. */
function addressFromBytes(hex: string): string {
  const address = encodeAddress(hex.slice(0, 44));
  const entrypoint = Buffer.from(hex.slice(44), 'hex').toString('utf8');
  return entrypoint ? `${address}%${entrypoint}` : address;
}

function timestamp(seconds: string): string {
  const ms = Number(seconds) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return seconds;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
