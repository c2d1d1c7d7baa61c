import { entrypointType, isPrim } from './Michelson';
import { fieldName, memberName, recordFields } from './MichelsonJson';

/** A Michelson type for people: records and unions spelled out, options flagged. */
export interface Typedef {
  name: string;
  type: string;
  optional?: boolean;
  args?: Typedef[];
}

export interface EntrypointInfo {
  id: number;
  name: string;
  /** Path through the parameter's `or` tree: L and R per level (empty for a parameter that is not an `or`). */
  branch: string;
  /** The argument: the record's fields, or the one value. */
  type: Typedef[];
  prim?: unknown;
}

/**
 * `pair` becomes `struct` with the record's fields (see recordFields), nested unnamed `or`s one
 * `union` of all variants, `option` the inner type with `optional`; collections and functions
 * keep their name with their element types as args.
 */
export function typedef(type: unknown, name?: string): Typedef {
  if (!isPrim(type)) return { name: name ?? '', type: 'unknown' };
  const own = name ?? fieldName(type) ?? '';
  const args = type.args ?? [];
  switch (type.prim) {
    case 'pair':
      return { name: own, type: 'struct', args: recordFields(type).map((f) => typedef(f.type, f.name)) };
    case 'or':
      return { name: own, type: 'union', args: unionVariants(type).map((v) => typedef(v.type, v.name)) };
    case 'option':
      return { ...typedef(args[0], own), optional: true };
    case 'map':
    case 'big_map':
      return { name: own, type: type.prim, args: [typedef(args[0], 'key'), typedef(args[1], 'value')] };
    case 'lambda':
      return { name: own, type: type.prim, args: [typedef(args[0], 'param'), typedef(args[1], 'return')] };
    default:
      return args.length > 0
        ? { name: own, type: type.prim, args: args.map((a, i) => typedef(a, String(i))) }
        : { name: own, type: type.prim };
  }
}

/** The leaves of nested `or`s without field annotations below the root, named by annotation or L/R path. */
export function unionVariants(type: unknown): Array<{ name: string; type: unknown }> {
  const out: Array<{ name: string; type: unknown }> = [];
  const walk = (t: unknown, path: string): void => {
    if (isPrim(t) && t.prim === 'or' && (path === '' || fieldName(t) === undefined) && t.args?.length === 2) {
      walk(t.args[0], `${path}L`);
      walk(t.args[1], `${path}R`);
    } else out.push({ name: memberName(t) ?? path, type: t });
  };
  walk(type, '');
  return out;
}

/**
 * Entrypoints in the order of core-chain's entrypoint ids (the leaves of the parameter's `or` tree,
 * depth first from the left; unnamed leaves are `@<index>`; a parameter that is not an `or` is `default`).
 */
export function entrypointList(parameterType: unknown, withPrim: boolean): EntrypointInfo[] {
  if (!isPrim(parameterType)) return [];
  const out: EntrypointInfo[] = [];
  const add = (t: unknown, branch: string, name: string): void => {
    const def = typedef(t, name);
    out.push({
      id: out.length,
      name,
      branch,
      type: def.type === 'struct' ? (def.args ?? []) : [def],
      ...(withPrim ? { prim: t } : {}),
    });
  };
  if (parameterType.prim !== 'or') {
    add(parameterType, '', fieldName(parameterType) ?? 'default');
    return out;
  }
  const walk = (t: unknown, branch: string): void => {
    if (isPrim(t) && t.prim === 'or' && t.args?.length === 2) {
      walk(t.args[0], `${branch}L`);
      walk(t.args[1], `${branch}R`);
    } else add(t, branch, fieldName(t) ?? `@${out.length}`);
  };
  walk(parameterType, '');
  return out;
}

/**
 * The type of the argument of a named entrypoint: the node annotated with its name anywhere in the
 * `or` tree; `default` without such a node is the whole parameter.
 */
export function entrypointArgType(parameterType: unknown, name: string): unknown {
  return entrypointType(parameterType, name) ?? (name === 'default' ? parameterType : undefined);
}

/** Views declared in a script's code: name, parameter and result types. */
export function viewList(
  code: unknown,
  withPrim: boolean,
): Array<{ name: string; param: Typedef; result: Typedef; prim?: unknown }> {
  if (!Array.isArray(code)) return [];
  return code
    .filter((s) => isPrim(s) && s.prim === 'view' && s.args?.length === 4)
    .map((s) => {
      const [name, param, result, body] = (s as { args: unknown[] }).args;
      const text = typeof name === 'object' && name !== null ? (name as { string?: unknown }).string : undefined;
      return {
        name: typeof text === 'string' ? text : '',
        param: typedef(param, 'param'),
        result: typedef(result, 'result'),
        ...(withPrim ? { prim: body } : {}),
      };
    });
}
