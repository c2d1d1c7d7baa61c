import { singleton } from 'tsyringe';

/** What the API tells clients about the chain it serves (response headers, caching); set by the indexer. */
@singleton()
export class ChainState {
  height?: number;
  networkId?: string;
  protocol?: string;
  /** Time of the newest indexed block (unix ms) and the observed interval between blocks (seconds). */
  headTime?: number;
  blockInterval?: number;

  update(patch: Partial<Pick<ChainState, 'height' | 'networkId' | 'protocol' | 'headTime' | 'blockInterval'>>): void {
    Object.assign(this, patch);
  }

  /** Seconds until the next block is expected (at least 1), for head-relative cache lifetimes. */
  secondsToNextBlock(now = Date.now()): number {
    if (this.headTime === undefined || this.blockInterval === undefined) return 1;
    return Math.max(1, Math.ceil((this.headTime + this.blockInterval * 1000 - now) / 1000));
  }
}
