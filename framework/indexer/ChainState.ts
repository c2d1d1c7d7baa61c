import { singleton } from 'tsyringe';

/**
 * The default finality: blocks this far below the head are final. The indexer journals (and can undo)
 * exactly this many blocks, and the API caches objects this deep as immutable; `--reorg-depth` sets both.
 */
export const FINAL_DEPTH = 64;

/** What the API tells clients about the chain it serves (response headers, caching); set by the indexer. */
@singleton()
export class ChainState {
  /** Blocks below the head that a reorg can no longer reach (the indexer's reorg depth). */
  finalDepth = FINAL_DEPTH;
  height?: number;
  networkId?: string;
  protocol?: string;
  /** Time of the newest indexed block (unix ms) and the observed interval between blocks (seconds). */
  headTime?: number;
  blockInterval?: number;

  update(
    patch: Partial<Pick<ChainState, 'height' | 'networkId' | 'protocol' | 'headTime' | 'blockInterval' | 'finalDepth'>>,
  ): void {
    Object.assign(this, patch);
  }

  /** Seconds until the next block is expected (at least 1), for head-relative cache lifetimes. */
  secondsToNextBlock(now = Date.now()): number {
    if (this.headTime === undefined || this.blockInterval === undefined) return 1;
    return Math.max(1, Math.ceil((this.headTime + this.blockInterval * 1000 - now) / 1000));
  }
}
