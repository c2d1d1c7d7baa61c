import type { GroupMatch, HandlerRegistry, IndexContext, MatchedStep } from '../../../framework';
import type { DexPoolKey } from './DexAdapter';

export interface SignaturePoolHandlers<S> {
  /** The pool's storage when it is one of the adapter's pools, else undefined (the call is skipped). */
  storage(v: unknown): S | undefined;
  /** A pool originated (a factory deployment or a plain origination), with its initial storage. */
  originated(ctx: IndexContext, m: GroupMatch, step: MatchedStep, s: S): Promise<void>;
  /** A call of one of `calls` on a pool (pair id 0), with the storage after it. */
  called(ctx: IndexContext, m: GroupMatch, step: MatchedStep, s: S, key: DexPoolKey): Promise<void>;
}

/**
 * One-contract-per-pool protocols recognized by their entrypoints: pools are claimed at origination
 * under `role`, and pools whose origination was not indexed at their first call (then watched under
 * `role` too, so `watch:` config and later subscriptions see them).
 */
export function signaturePools<S>(
  r: HandlerRegistry,
  role: string,
  entrypoints: readonly string[],
  calls: readonly string[],
  h: SignaturePoolHandlers<S>,
): void {
  const signature = { entrypoints };
  r.claim(role, signature);
  r.onOperationGroup([{ name: 'pool', type: 'origination', destination: { role } }], async (m, ctx) => {
    const step = m.steps.pool!;
    const s = h.storage(step.storage);
    if (s) await h.originated(ctx, m, step, s);
  });
  r.onOperationGroup([{ name: 'pool', destination: signature, entrypoint: [...calls] }], async (m, ctx) => {
    const step = m.steps.pool!;
    const s = h.storage(step.storage);
    if (!s) return;
    if (!ctx.watched(step.contract).includes(role)) await ctx.watch(step.contract, role);
    await h.called(ctx, m, step, s, { contract: step.contract, pairId: 0 });
  });
}
