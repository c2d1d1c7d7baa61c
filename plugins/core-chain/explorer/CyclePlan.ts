import { configConstants, nodeConstants } from './ConfigConstants';

export interface CyclePlan {
  /** Planned last height of an open cycle; null when the protocol's cycle length is unknown. */
  end_height: number | null;
  /** When the planned last block is due at the minimal block delay from the head; null when unknown. */
  end_time: string | null;
  /** Percent of the cycle's planned blocks produced (100 when complete). */
  progress: number | null;
  /** Seed nonces revealed in the cycle in percent of the commitments one cycle requires. */
  seed_rate: number | null;
}

export interface CycleFacts {
  start: number;
  head: number;
  headTime: string;
  complete: boolean;
  /** Nonce revelations included in the cycle. */
  seeds: number;
}

const percent = (part: number, whole: number): number => Math.round((part * 10000) / whole) / 100;

/**
 * What the protocol's constants say of a cycle the blocks alone cannot: its planned end, progress
 * and seed rate (as the original: the revelations included in the cycle against the
 * blocks_per_cycle / blocks_per_commitment nonces the previous cycle committed to). Unlike the
 * original, progress counts from the cycle's own first block, not from height 0 (mainnet's cycles
 * do not start at multiples of blocks_per_cycle since Granada).
 */
export function cyclePlan(raw: unknown, f: CycleFacts): CyclePlan {
  const { blocks_per_cycle: perCycle, minimal_block_delay: delay } = configConstants(raw);
  const perCommitment = Number(nodeConstants(raw).blocks_per_commitment ?? NaN);
  const seedRate = perCycle && perCommitment > 0 ? percent(f.seeds, Math.floor(perCycle / perCommitment)) : null;
  if (!perCycle) return { end_height: null, end_time: null, progress: f.complete ? 100 : null, seed_rate: seedRate };
  const end = f.start + perCycle - 1;
  const due =
    delay === null
      ? null
      : new Date(Date.parse(f.headTime) + (end - f.head) * delay * 1000).toISOString().replace('.000Z', 'Z');
  const done = f.complete ? perCycle : Math.min(perCycle, f.head - f.start + 1);
  return { end_height: end, end_time: due, progress: percent(done, perCycle), seed_rate: seedRate };
}
