import type { MatchedStep, TypedCall } from '../../../../framework';
import { type QuipuV1Types0Parameters, quipuV1Types0Code, quipuV1Types1Code } from './types.gen';

/*
 * Why: a pool's calls and storage read through the generated readers of the shipped versions (`types.gen.ts`).
 * With no types at hand the call's parameters and storage are raw Micheline: the pool is one of the shipped
 * versions when its storage decodes as that version's exactly (the FA1.2 and FA2 records differ in shape, and a
 * loose reading would mis-place fields); a pool of any other version is skipped, never read with the wrong type.
 */

/** The pool's actions: `use`'s branches, also entrypoints of their own (the same arguments in both versions). */
const ACTIONS = new Set<string>([
  'tezToTokenPayment',
  'tokenToTezPayment',
  'investLiquidity',
  'divestLiquidity',
  'withdrawProfit',
]);
type Actions = Pick<
  QuipuV1Types0Parameters,
  'tezToTokenPayment' | 'tokenToTezPayment' | 'investLiquidity' | 'divestLiquidity' | 'withdrawProfit'
>;

/** One action of a pool, typed: the named entrypoint called, or the branch `use` chose. */
export type QuipuAction = TypedCall<Actions>;

const isAction = (c: TypedCall<QuipuV1Types0Parameters>): c is QuipuAction => ACTIONS.has(c.entrypoint);

/**
 * A decoded call's action: a named action's argument, or `use`'s chosen branch (`{ branch: value }`) checked
 * against the entrypoint of that name. The actions' arguments are the same in the FA1.2 and FA2 versions.
 */
export function poolAction(step: { entrypoint?: string; parameters: unknown }): QuipuAction | undefined {
  const c = quipuV1Types0Code.call(step);
  if (c?.entrypoint === 'use') {
    const [[branch, args]] = Object.entries(c.args);
    return poolAction({ entrypoint: branch, parameters: args });
  }
  return c && isAction(c) ? c : undefined;
}

/** A call read with a version's types: the pool's record after it, and the action. */
export interface ShippedCall {
  storage: unknown;
  call: QuipuAction;
}

/** A call of a pool whose types are not at hand, read with the shipped version its raw storage decodes as. */
export function shippedCall(step: MatchedStep): ShippedCall | undefined {
  const raw = step.op.storage;
  for (const code of [quipuV1Types0Code, quipuV1Types1Code]) {
    const storage = code.storage(code.types.storage(raw));
    if (storage === undefined) continue;
    const call = poolAction({
      entrypoint: step.op.entrypoint,
      parameters: code.types.parameters(step.op.entrypoint, step.op.parameters),
    });
    return call && { storage, call };
  }
  return undefined;
}

/** A `transfer` of a pool's own shares (its LP token) read with the shipped types: FA1.2 or FA2, whichever fits. */
export function shippedTransfer(raw: unknown): unknown {
  const transfer = { entrypoint: 'transfer', parameters: raw };
  const c = quipuV1Types0Code.decodeCall(transfer) ?? quipuV1Types1Code.decodeCall(transfer);
  return c?.entrypoint === 'transfer' ? c.args : undefined;
}
