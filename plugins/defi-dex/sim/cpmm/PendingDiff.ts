import type { CallContext, LazyStorageDiff } from '../../../../framework/sandbox/extension';

/**
 * The diff of a pool model's own big maps, built up while one call applies and taken when the call's
 * result is written (or dropped when the call fails): the ledger updates of pools that are their own
 * LP token (QuipuSwap v1 and v2).
 */
export class PendingDiff {
  private diff: LazyStorageDiff | undefined;

  of(call: CallContext): LazyStorageDiff {
    this.diff ??= call.newDiff();
    return this.diff;
  }

  take(call: CallContext): LazyStorageDiff {
    const d = this.diff ?? call.newDiff();
    this.diff = undefined;
    return d;
  }
}
