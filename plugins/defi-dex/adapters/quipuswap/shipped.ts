import type { MatchedStep } from '../../../../framework';
import type { ContractTypes } from '../../../../framework/michelson/ContractTypes';
import { QUIPU_V1_TYPES } from './types';

/*
 * Why: with no types at hand the call's parameters and storage are raw Micheline. The pool is one of
 * the shipped versions when its storage fits that version's storage type exactly (strict reading: the
 * FA1.2 and FA2 records differ in shape, and a loose reading would mis-place fields); a pool of any
 * other version is skipped, never read with the wrong type.
 */

/** A call read with a version's types: the storage after it, and the action (`use` unwrapped to its branch). */
export interface ShippedCall {
  storage: unknown;
  call: { name: string; args: unknown };
}

export function shippedCall(step: MatchedStep): ShippedCall | undefined {
  const raw = step.op.storage;
  for (const types of QUIPU_V1_TYPES) {
    const storage = strictly(() => types.storage(raw, { strict: true }));
    if (storage === undefined) continue;
    const call = action(types, step.op.entrypoint ?? 'default', step.op.parameters);
    return call && { storage, call };
  }
  return undefined;
}

/** The action a call names: a named entrypoint's argument, or `use`'s chosen branch (by the tree's annotations). */
function action(types: ContractTypes, entrypoint: string, raw: unknown): ShippedCall['call'] | undefined {
  const args = strictly(() => types.parameters(entrypoint, raw, { strict: true }));
  if (args === undefined) return undefined;
  if (entrypoint !== 'use') return { name: entrypoint, args };
  // `use` reads as `{branch: value}`, the leaf its `or` tree chose named by the tree's annotation.
  const [branch] = Object.entries(args as object);
  return { name: branch[0], args: branch[1] };
}

/** A `transfer` of a pool's own shares (its LP token) read with the shipped types: FA1.2 or FA2, whichever fits. */
export function shippedTransfer(raw: unknown): unknown {
  for (const types of QUIPU_V1_TYPES) {
    const args = strictly(() => types.parameters('transfer', raw, { strict: true }));
    if (args !== undefined) return args;
  }
  return undefined;
}

/** The value read, or undefined when it does not fit the type. */
function strictly(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}
