import type { ContractTypes } from './ContractTypes';
import { isPrim } from './Michelson';
import { fieldName, recordFields } from './MichelsonJson';
import { entrypointArgType, unionVariants } from './MichelsonTypes';
import { type Micheline, type MichelineForm, michelineOf } from './PlainMicheline';
import { plainValue } from './PlainValue';

/*
 * Why: handlers read decoded calls and storages (`plainValue`, the default options). One walk over a Michelson
 * type gives both the TypeScript type of what the decoder makes of it (`npm run gen` writes it beside the
 * shipped types) and the check that a decoded value has that shape, so a value is typed once, at the decode
 * boundary, and a part the decoder left as Micheline (it fits no type) never passes for a typed one.
 */

/** A big map as the decoder gives it: its id (a number) in a storage, its entries (a literal, as in an origination). */
export type BigMap<K, V> = number | Map<K, V>;

/** The value type of a `BigMap` (what one of its entries decodes to). */
export type BigMapValue<B> = B extends Map<unknown, infer V> ? V : never;

const INTEGERS = new Set(['int', 'nat', 'mutez']);
const TEXTS = new Set(['string', 'bytes', 'address', 'contract', 'key_hash', 'key', 'chain_id', 'signature']);

/** The TypeScript type (text) of the plain value `plainValue` gives for a value of this Michelson type. */
export function plainTsType(type: unknown): string {
  if (!isPrim(type)) return 'unknown';
  const args = type.args ?? [];
  if (INTEGERS.has(type.prim)) return 'bigint';
  if (TEXTS.has(type.prim)) return 'string';
  switch (type.prim) {
    case 'pair':
      return `{ ${recordFields(type)
        .map((f) => `${tsKey(f.name)}: ${plainTsType(f.type)};`)
        .join(' ')} }`;
    case 'or':
      return unionVariants(type)
        .map((v) => `{ ${tsKey(v.name)}: ${plainTsType(v.type)} }`)
        .join(' | ');
    case 'option':
      return `${plainTsType(args[0])} | null`;
    case 'list':
    case 'set':
      return `Array<${plainTsType(args[0])}>`;
    case 'map':
      return `Map<${plainTsType(args[0])}, ${plainTsType(args[1])}>`;
    case 'big_map':
      return `BigMap<${plainTsType(args[0])}, ${plainTsType(args[1])}>`;
    case 'bool':
      return 'boolean';
    case 'unit':
      return 'null';
    case 'timestamp':
      // A Date, or the text when it is none (a call may give a timestamp as any text the node took).
      return 'Date | string';
    default:
      // lambda, operation, ticket…: the decoder keeps them Micheline.
      return 'unknown';
  }
}

/** A name as an object key in TypeScript: quoted unless it is an identifier. */
export const tsKey = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** Whether a plain value has the shape `plainTsType` names for the type (every field, variant and leaf). */
export function conforms(type: unknown, value: unknown): boolean {
  if (!isPrim(type)) return true;
  const args = type.args ?? [];
  if (INTEGERS.has(type.prim)) return typeof value === 'bigint';
  if (TEXTS.has(type.prim)) return typeof value === 'string';
  switch (type.prim) {
    case 'pair': {
      if (!isRecord(value)) return false;
      const fields = recordFields(type);
      return Object.keys(value).length === fields.length && fields.every((f) => conforms(f.type, value[f.name]));
    }
    case 'or': {
      const names = isRecord(value) ? Object.keys(value) : [];
      const variant = names.length === 1 ? unionVariants(type).find((v) => v.name === names[0]) : undefined;
      return variant !== undefined && conforms(variant.type, (value as Record<string, unknown>)[names[0]]);
    }
    case 'option':
      return value === null || conforms(args[0], value);
    case 'list':
    case 'set':
      return Array.isArray(value) && value.every((v) => conforms(args[0], v));
    case 'map':
    case 'big_map':
      if (type.prim === 'big_map' && typeof value === 'number') return true;
      return value instanceof Map && [...value].every(([k, v]) => conforms(args[0], k) && conforms(args[1], v));
    case 'bool':
      return typeof value === 'boolean';
    case 'unit':
      return value === null;
    case 'timestamp':
      return value instanceof Date || typeof value === 'string';
    default:
      return true;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** Plain values of one Michelson type, typed as `npm run gen` names them (`T`) once they are checked. */
export class TypedValue<T> {
  constructor(readonly type: unknown) {}

  /** An already decoded value, when it has the type's shape. */
  read(plain: unknown): T | undefined {
    return conforms(this.type, plain) ? (plain as T) : undefined;
  }

  /** A Micheline value decoded with the type, when all of it fits. */
  decode(micheline: unknown): T | undefined {
    return this.read(plainValue(this.type, micheline));
  }

  /** The value's Micheline through the type (the decoder's inverse): what a simulator writes. */
  encode(value: T, form?: MichelineForm): Micheline {
    return michelineOf(this.type, value, form);
  }

  /** The type of one field of this record type. */
  field<K extends keyof T & string>(name: K): TypedValue<T[K]> {
    const f = recordFields(this.type).find((x) => x.name === name);
    if (!f) throw new Error(`no field ${name} in the type`);
    return new TypedValue<T[K]>(f.type);
  }

  /** The key and value types of this map or big map type. */
  entries<K, V>(this: TypedValue<BigMap<K, V>>): { key: TypedValue<K>; value: TypedValue<V> } {
    const args = isPrim(this.type) && (this.type.prim === 'map' || this.type.prim === 'big_map') ? this.type.args : [];
    if (args?.length !== 2) throw new Error('not a map type');
    return { key: new TypedValue<K>(args[0]), value: new TypedValue<V>(args[1]) };
  }
}

/** A call of one of a contract version's entrypoints, typed: switch on `entrypoint` to get its `args`. */
export type TypedCall<P> = { [E in keyof P]: { entrypoint: E; args: P[E] } }[keyof P];

/** What a matched operation gives: the entrypoint called and its decoded argument. */
interface Called {
  readonly entrypoint?: string;
  readonly parameters: unknown;
}

/**
 * A shipped contract version's decoded storage (`S`) and entrypoint arguments (`P`: entrypoint → argument),
 * as `npm run gen` writes them: a value of another version, or one the decoder could not read, is undefined.
 */
export class TypedCode<S, P> {
  private readonly storageType: TypedValue<S>;
  private readonly args = new Map<string, TypedValue<unknown>>();

  constructor(readonly types: ContractTypes) {
    this.storageType = new TypedValue<S>(types.storageType);
    for (const [name, type] of entrypointTypes(types.parameterType)) this.args.set(name, new TypedValue(type));
  }

  storage(plain: unknown): S | undefined {
    return this.storageType.read(plain);
  }

  /** The storage's type, to write a storage (optimized, as a node does) or read into its parts. */
  get storageValue(): TypedValue<S> {
    return this.storageType;
  }

  /** The Micheline argument of a call of `entrypoint` (readable, as calls are written). */
  encodeCall<E extends keyof P & string>(entrypoint: E, args: P[E]): Micheline {
    return michelineOf(entrypointArgType(this.types.parameterType, entrypoint), args);
  }

  /** The argument of a call of `entrypoint`, when it has the entrypoint's type. */
  parameters<E extends keyof P & string>(entrypoint: E, plain: unknown): P[E] | undefined {
    return this.args.get(entrypoint)?.read(plain) as P[E] | undefined;
  }

  /** A matched call of this version: its entrypoint and argument, typed; undefined when the argument is not. */
  call(step: Called): TypedCall<P> | undefined {
    const entrypoint = step.entrypoint ?? 'default';
    // A transfer with no parameters calls `default` with Unit (null, when the entrypoint takes unit).
    const plain = step.parameters === undefined && step.entrypoint === undefined ? null : step.parameters;
    const args = this.args.get(entrypoint)?.read(plain);
    return args === undefined ? undefined : ({ entrypoint, args } as TypedCall<P>);
  }

  /** An operation's call of this version, its argument still Micheline (an operation the pattern did not match). */
  decodeCall(op: { readonly entrypoint?: string; readonly parameters?: unknown }): TypedCall<P> | undefined {
    return this.call({ entrypoint: op.entrypoint, parameters: this.types.parameters(op.entrypoint, op.parameters) });
  }
}

/**
 * Every entrypoint a call can name with its argument's type: each annotated node of the parameter's `or` tree
 * (a named `or` is one too, with its own entrypoints below it) and `default` (the whole parameter) when no node
 * is called so (`entrypointArgType`).
 */
export function entrypointTypes(parameterType: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (t: unknown): void => {
    const name = fieldName(t);
    if (name !== undefined && !out.has(name)) out.set(name, t);
    if (isPrim(t) && t.prim === 'or' && t.args?.length === 2) t.args.forEach(walk);
  };
  walk(parameterType);
  if (!out.has('default')) out.set('default', parameterType);
  return out;
}
