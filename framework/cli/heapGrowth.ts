import { setFlagsFromString } from 'node:v8';

/** Old-space growth per full collection: the heap may double its live size, not quadruple it. */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Why: an indexing batch's blocks and rows live for seconds, so they are promoted to the old space
 * and die together when the batch commits. V8 lets the old space grow to up to 4× what survived the
 * last full collection before it collects again; for this pattern that is mostly dead batches, about
 * 4× the indexer's live memory in resident set. Capping the growth at 2× costs a few more (short)
 * full collections. Set at run time so every way of starting the process gets it; a
 * `--heap-growing-percent` given to node wins.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((a) => a.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
