import { annotated, prim, t, type Micheline } from '../Michelson';
import { asMicheline } from '../../michelson/PlainMicheline';

/**
 * Michelson `code` for a contract: the parameter and storage types are what indexers read (entrypoints,
 * big map types); the body is a stand-in, since the sandbox computes effects in TypeScript.
 */
export function script(parameter: Micheline, storage: Micheline): Micheline {
  return [
    prim('parameter', [parameter]),
    prim('storage', [storage]),
    prim('code', [[prim('CDR'), prim('NIL', [prim('operation')]), prim('PAIR')]]),
  ];
}

/** The `code` of a contract with a real contract's shipped parameter and storage types (`types.ts`). */
export function shippedScript(types: { readonly parameterType: unknown; readonly storageType: unknown }): Micheline {
  return script(asMicheline(types.parameterType), asMicheline(types.storageType));
}

/** Nested `or` of entrypoint types annotated `%name`, balanced like the compilers emit them. */
export function entrypoints(...eps: [name: string, type: Micheline][]): Micheline {
  if (eps.length === 1) {
    const [name, type] = eps[0];
    return annotated(type, `%${name}`);
  }
  const mid = Math.ceil(eps.length / 2);
  return prim('or', [entrypoints(...eps.slice(0, mid)), entrypoints(...eps.slice(mid))]);
}

/** `(pair a (pair b c))` type with field annotations. */
export function pairT(...fields: Micheline[]): Micheline {
  if (fields.length === 1) return fields[0];
  return prim('pair', [fields[0], pairT(...fields.slice(1))]);
}

/** A pair type annotated as a field (a record nested in a record): `(pair %handle (nat %id) (address %owner))`. */
export function namedPairT(annot: string, ...fields: Micheline[]): Micheline {
  return annotated(pairT(...fields), annot);
}

export const tAddress = (a?: string) => t('address', a);
export const tNat = (a?: string) => t('nat', a);
export const tInt = (a?: string) => t('int', a);
export const tMutez = (a?: string) => t('mutez', a);
export const tTimestamp = (a?: string) => t('timestamp', a);
export const tUnit = (a?: string) => t('unit', a);
export const tString = (a?: string) => t('string', a);
export const tBytes = (a?: string) => t('bytes', a);
export const tBool = (a?: string) => t('bool', a);
export const tBigMap = (k: Micheline, v: Micheline, a?: string) => t('big_map', a, k, v);
