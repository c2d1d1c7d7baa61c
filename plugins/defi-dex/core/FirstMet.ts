import type { GroupMatch, IndexContext, MatchedStep } from '../../../framework';
import type { DexPoolDecl, DexPoolKey, DexSink, DexSupply } from './DexAdapter';

/**
 * The pool's supply before this call. A pool first met in a call (its origination not indexed) is declared
 * then, with the supply after the call, which is also what this answers: the call's own moves are then not
 * undone (the adapters that can undo them, like SpicySwap's, do it themselves).
 */
/**
 * What a pool first met at a deposit held before it, when that deposit opened it: its reserves after are
 * exactly what the call paid in, so it was empty (no reserves, no shares). Undefined otherwise.
 */
export function openedBy(after: DexSupply, paidIn: readonly bigint[]): DexSupply | undefined {
  const opened = after.reserves.every((r, i) => r === paidIn[i]);
  return opened ? { reserves: after.reserves.map(() => 0n), lpSupply: 0n } : undefined;
}

export async function supplyBefore(
  ctx: IndexContext,
  sink: DexSink,
  key: DexPoolKey,
  declare: () => DexPoolDecl,
  after: DexSupply,
  origin: { match: GroupMatch; step: MatchedStep },
): Promise<DexSupply> {
  const before = await sink.supply(ctx, key);
  if (before) return before;
  await sink.pool(ctx, declare(), after, origin);
  return after;
}
