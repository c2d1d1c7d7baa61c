import { isPrim } from './Michelson';
import { fieldName, memberName, pairSides, recordFields } from './MichelsonJson';

/*
 * Why: simulators hold their contracts' state as the plain values the indexer decodes (`plainValue`), typed by the
 * generated types of the shipped Michelson types (`types.gen.ts`). This writes such a value back as Micheline with
 * the same type, so a simulator's storage and parameters have the real layout without a hand-written one. It is
 * the decoder's inverse: `plainValue(type, plainMicheline(type, v))` is `v`.
 */

/** A Micheline value node (the JSON form the node and the sandbox write). */
export type MichelineNode =
  | { int: string }
  | { string: string }
  | { bytes: string }
  | { prim: string; args?: MichelineNode[]; annots?: string[] }
  | MichelineNode[];

const INTEGERS = new Set(['int', 'nat', 'mutez']);
const TEXTS = new Set(['string', 'address', 'contract', 'key_hash', 'key', 'chain_id', 'signature']);

/** A plain value of `type` (as `plainValue` gives it) as Micheline; throws when the value does not fit the type. */
export function plainMicheline(type: unknown, value: unknown): MichelineNode {
  if (!isPrim(type)) throw new Error('plainMicheline: not a type');
  const args = type.args ?? [];
  const misfit = () => new Error(`plainMicheline: ${String(value)} is no ${type.prim}`);
  if (INTEGERS.has(type.prim)) {
    if (typeof value !== 'bigint') throw misfit();
    return { int: value.toString() };
  }
  if (TEXTS.has(type.prim) || type.prim === 'bytes') {
    if (typeof value !== 'string') throw misfit();
    return type.prim === 'bytes' ? { bytes: value } : { string: value };
  }
  switch (type.prim) {
    case 'pair':
      return pairValue(type, value);
    case 'or':
      return orValue(type, value);
    case 'option':
      return value === null ? { prim: 'None' } : { prim: 'Some', args: [plainMicheline(args[0], value)] };
    case 'list':
    case 'set':
      if (!Array.isArray(value)) throw misfit();
      return value.map((v: unknown) => plainMicheline(args[0], v));
    case 'big_map':
    case 'map':
      // A big map is its id in a storage; a literal (an origination's) is written as a map.
      if (type.prim === 'big_map' && typeof value === 'number') return { int: String(value) };
      if (!(value instanceof Map)) throw misfit();
      return [...value]
        .sort(([a], [b]) => (typeof a === 'bigint' && typeof b === 'bigint' ? (a < b ? -1 : a > b ? 1 : 0) : 0))
        .map(([k, v]) => ({ prim: 'Elt', args: [plainMicheline(args[0], k), plainMicheline(args[1], v)] }));
    case 'bool':
      if (typeof value !== 'boolean') throw misfit();
      return { prim: value ? 'True' : 'False' };
    case 'unit':
      return { prim: 'Unit' };
    case 'timestamp':
      // Whole seconds as the chain writes them; a time with milliseconds (text a call gave) as that text.
      if (value instanceof Date)
        return value.getTime() % 1000 === 0 ? { int: String(value.getTime() / 1000) } : { string: value.toISOString() };
      if (typeof value !== 'string') throw misfit();
      return { string: value };
    default:
      // lambda, operation, ticket…: no plain form to write back.
      throw new Error(`plainMicheline: cannot write a ${type.prim}`);
  }
}

/** A record: each field of `recordFields` (its name) placed where the type's pairs put it. */
function pairValue(type: unknown, value: unknown): MichelineNode {
  if (typeof value !== 'object' || value === null) throw new Error('plainMicheline: a pair needs an object');
  const fields = recordFields(type);
  const record = new Map(Object.entries(value));
  let next = 0;
  const walk = (t: unknown, root: boolean): MichelineNode => {
    const sides = isPrim(t) && t.prim === 'pair' && (root || fieldName(t) === undefined) ? pairSides(t) : undefined;
    if (sides) return { prim: 'Pair', args: [walk(sides[0], false), walk(sides[1], false)] };
    const f = fields[next++];
    if (!record.has(f.name)) throw new Error(`plainMicheline: no field ${f.name}`);
    return plainMicheline(t, record.get(f.name));
  };
  return walk(type, true);
}

/** A union value `{ variant: value }`: Left/Right down to the variant `unionVariants` names so. */
function orValue(type: unknown, value: unknown): MichelineNode {
  const [name, inner] = typeof value === 'object' && value !== null ? (Object.entries(value)[0] ?? []) : [];
  const find = (t: unknown, path: string): MichelineNode | undefined => {
    if (isPrim(t) && t.prim === 'or' && (path === '' || fieldName(t) === undefined) && t.args?.length === 2) {
      for (const [i, side] of ['Left', 'Right'].entries()) {
        const found = find(t.args[i], `${path}${side[0]}`);
        if (found !== undefined) return { prim: side, args: [found] };
      }
      return undefined;
    }
    return (memberName(t) ?? path) === name ? plainMicheline(t, inner) : undefined;
  };
  const out = find(type, '');
  if (out === undefined) throw new Error(`plainMicheline: no variant ${String(name)}`);
  return out;
}
