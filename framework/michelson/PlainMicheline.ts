import { b58DecodeAddress } from '@taquito/utils';
import { isPrim } from './Michelson';
import { fieldName, memberName, pairSides, recordFields } from './MichelsonJson';

/*
 * Why: simulators write their storages and calls from the same typed values the adapters decode (`plainValue`,
 * `types.gen.ts`), through the contract's real Michelson type, instead of a hand-built Micheline layout. This is
 * the decoder's inverse: records → right-combed `Pair`s by the type's own nesting, `{variant: v}` → `Left`/`Right`,
 * null → `None`, Maps → `Elt`s, bigint → int, a big map id (number) → int.
 */

/** Micheline JSON as the node prints it. */
export type Micheline =
  | { int: string }
  | { string: string }
  | { bytes: string }
  | { prim: string; args?: Micheline[]; annots?: string[] }
  | Micheline[];

/**
 * How leaves are written: `readable` as calls are (addresses and timestamps as text), `optimized` as a node writes
 * storage (addresses as their binary form, timestamps as seconds).
 */
export type MichelineForm = 'readable' | 'optimized';

/** Whether a JSON value is Micheline (what a shipped type parsed from the script's text gives). */
export function isMicheline(v: unknown): v is Micheline {
  if (Array.isArray(v)) return v.every(isMicheline);
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  if (typeof o.prim === 'string')
    return (
      (o.args === undefined || (Array.isArray(o.args) && o.args.every(isMicheline))) &&
      (o.annots === undefined || (Array.isArray(o.annots) && o.annots.every((a) => typeof a === 'string')))
    );
  return typeof o.int === 'string' || typeof o.string === 'string' || typeof o.bytes === 'string';
}

/** A JSON value known to be Micheline (a type from a script); throws when it is not. */
export function asMicheline(v: unknown): Micheline {
  if (!isMicheline(v)) throw new Error(`not Micheline: ${JSON.stringify(v)?.slice(0, 200)}`);
  return v;
}

/** The Micheline of a plain value of `type` (as `plainValue` decodes it); throws where a part does not fit. */
export function michelineOf(type: unknown, plain: unknown, form: MichelineForm = 'readable'): Micheline {
  if (!isPrim(type)) throw new Error('michelineOf: not a type');
  const args = type.args ?? [];
  const misfit = (): never => {
    throw new Error(`michelineOf: ${typeof plain} does not fit ${type.prim}`);
  };
  switch (type.prim) {
    case 'pair':
      return record(type, isRecord(plain) ? plain : misfit(), form);
    case 'or':
      return variant(type, isRecord(plain) ? plain : misfit(), form);
    case 'option':
      return plain === null ? { prim: 'None' } : { prim: 'Some', args: [michelineOf(args[0], plain, form)] };
    case 'list':
    case 'set':
      return (Array.isArray(plain) ? plain : misfit()).map((v) => michelineOf(args[0], v, form));
    case 'big_map':
    case 'map':
      if (type.prim === 'big_map' && typeof plain === 'number') return { int: String(plain) };
      return [...(plain instanceof Map ? plain : misfit())]
        .sort(([a], [b]) => (typeof a === 'bigint' && typeof b === 'bigint' ? (a < b ? -1 : a > b ? 1 : 0) : 0))
        .map(([k, v]) => ({ prim: 'Elt', args: [michelineOf(args[0], k, form), michelineOf(args[1], v, form)] }));
    case 'int':
    case 'nat':
    case 'mutez':
      return { int: String(typeof plain === 'bigint' ? plain : misfit()) };
    case 'bool':
      return { prim: plain === true ? 'True' : plain === false ? 'False' : misfit() };
    case 'unit':
      return plain === null ? { prim: 'Unit' } : misfit();
    case 'bytes':
      return { bytes: typeof plain === 'string' ? plain : misfit() };
    case 'timestamp':
      if (plain instanceof Date)
        return form === 'optimized'
          ? { int: String(Math.floor(plain.getTime() / 1000)) }
          : { string: plain.toISOString().replace('.000Z', 'Z') };
      return { string: typeof plain === 'string' ? plain : misfit() };
    case 'address':
    case 'contract':
      if (typeof plain !== 'string') return misfit();
      return form === 'optimized' ? { bytes: b58DecodeAddress(plain) } : { string: plain };
    case 'string':
    case 'key_hash':
    case 'key':
    case 'chain_id':
    case 'signature':
      return { string: typeof plain === 'string' ? plain : misfit() };
    default:
      // lambda, operation, ticket…: the decoder keeps them Micheline, so they are written as they are.
      return asMicheline(plain);
  }
}

/**
 * A record's fields at their places in the type's pairs (the nesting `recordFields` flattens). The optimized form
 * writes right combs as a node does (Octez `Script_ir_unparser.unparse_pair`): two or three leaves as binary
 * `Pair`s, four or more as a sequence `{x1; …; xn}`; the readable form keeps binary `Pair`s, as calls are sent.
 */
function record(type: unknown, plain: Record<string, unknown>, form: MichelineForm): Micheline {
  const fields = recordFields(type);
  if (Object.keys(plain).length !== fields.length) throw new Error('michelineOf: the record has other fields');
  const isPair = (t: unknown) => isPrim(t) && t.prim === 'pair';
  const build = (t: unknown, path: number[]): Micheline => {
    const field = fields.find((f) => f.path.length === path.length && f.path.every((s, i) => s === path[i]));
    if (field) {
      if (!(field.name in plain)) throw new Error(`michelineOf: no field ${field.name}`);
      return michelineOf(field.type, plain[field.name], form);
    }
    const [lt, rt] = pairSides(t) ?? [];
    const [l, r] = [build(lt, [...path, 0]), build(rt, [...path, 1])];
    if (form === 'optimized' && isPair(rt)) {
      if (Array.isArray(r)) return [l, ...r];
      const [x2, rest] = pairArgs(r) ?? [];
      const x34 = rest && isPair(pairSides(rt)?.[1]) ? pairArgs(rest) : undefined;
      if (x2 && x34) return [l, x2, ...x34];
    }
    return { prim: 'Pair', args: [l, r] };
  };
  return build(type, []);
}

/** `{name: value}` as the `Left`/`Right` path to the variant so named (annotation, else its L/R path). */
function variant(type: unknown, plain: Record<string, unknown>, form: MichelineForm): Micheline {
  const [name] = Object.keys(plain);
  const find = (t: unknown, path: string): Micheline | undefined => {
    const sides = isPrim(t) && t.prim === 'or' && (path === '' || fieldName(t) === undefined) ? t.args : undefined;
    if (sides?.length !== 2) return (memberName(t) ?? path) === name ? michelineOf(t, plain[name], form) : undefined;
    const l = find(sides[0], `${path}L`);
    if (l) return { prim: 'Left', args: [l] };
    const r = find(sides[1], `${path}R`);
    return r && { prim: 'Right', args: [r] };
  };
  const out = Object.keys(plain).length === 1 ? find(type, '') : undefined;
  if (!out) throw new Error(`michelineOf: no variant ${name}`);
  return out;
}

/** The two sides of a binary `Pair` value. */
function pairArgs(m: Micheline): [Micheline, Micheline] | undefined {
  return !Array.isArray(m) && 'prim' in m && m.prim === 'Pair' && m.args?.length === 2
    ? [m.args[0], m.args[1]]
    : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}
