import { Prng } from './Prng';
import type { SandboxChain } from './SandboxChain';

/**
 * One live step of the demo node: bake the next block, or now and then replace the last blocks
 * (a reorg). The draw is keyed by the step count, not the head level: a reorg leaves the head level
 * where it was, so a level-keyed draw would pick the same reorg again at every step and the chain
 * would never advance. A step right after a reorg always bakes.
 */
export class LiveBaker {
  private step = 0;
  private reorged = false;
  reorgs = 0;

  constructor(
    private readonly chain: SandboxChain,
    private readonly reorgRate: number,
    private readonly reorgDepth: number,
  ) {}

  /** Steps taken so far: replaying as many on the same chain gives the same blocks and reorgs. */
  get steps(): number {
    return this.step;
  }

  tick(): void {
    const prng = Prng.derive(this.chain.seed, 'live-reorg', this.step++);
    const canReorg = !this.reorged && this.reorgRate > 0 && this.chain.headLevel > this.reorgDepth + 1;
    if (canReorg && prng.chance(this.reorgRate)) {
      this.chain.reorg(prng.range(1, this.reorgDepth));
      this.reorged = true;
      this.reorgs++;
    } else {
      this.chain.bake(1);
      this.reorged = false;
    }
  }
}
