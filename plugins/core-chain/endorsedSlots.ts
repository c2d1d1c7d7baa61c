import type { NormalizedBlock } from '../../framework';

/**
 * The endorsing power a block's applied endorsements gave its predecessor: that block's
 * `n_endorsed_slots`, known only once the block after it is.
 */
export function endorsedSlotsOfPredecessor(block: NormalizedBlock): number {
  let slots = 0;
  for (const op of block.operations) {
    if (op.isSuccess && op.type === 'endorsement' && op.consensus?.level === block.level - 1)
      slots += op.consensus.power;
  }
  return slots;
}
