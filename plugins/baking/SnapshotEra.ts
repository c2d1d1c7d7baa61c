import { snapshotLag, asBigInt, member } from '../../framework';

/**
 * How a protocol takes stake snapshots, from its constants. Emmy (up to Hangzhou) snapshots rolls
 * every `blocks_per_roll_snapshot` blocks; Tenderbake up to Oxford snapshots stake every
 * `blocks_per_stake_snapshot` blocks. At a cycle's end both pick one of a cycle's snapshots at random
 * for the rights of cycle + preserved_cycles + 1: Emmy from the cycle before the one ending, Tenderbake
 * from the one ending. From Paris on the stake at each cycle's end is the snapshot (no pick).
 */
export interface SnapshotEra {
  readonly kind: 'emmy' | 'tenderbake' | 'paris';
  readonly cycleLength: number;
  /** Blocks between two snapshots of a cycle; a snapshot is the block at position (i + 1) × every − 1. */
  readonly every: number;
  /** preserved_cycles (consensus_rights_delay from Paris on). */
  readonly delay: number;
  /** Cycles between a snapshot's cycle and the cycle whose rights it gives (framework snapshotLag). */
  readonly lag: number;
  /** Emmy's tez per roll (mutez); null in later eras. */
  readonly tokensPerRoll: bigint | null;
}

/** The era of a protocol's constants; undefined when they do not tell cycle length and delay. */
export function snapshotEra(constants: Readonly<Record<string, unknown>> | undefined): SnapshotEra | undefined {
  const cycleLength = Number(constants?.blocks_per_cycle ?? 0);
  const lag = snapshotLag(constants);
  if (!constants || cycleLength <= 0 || lag === undefined) return undefined;
  const delay = Number(constants.consensus_rights_delay ?? constants.preserved_cycles);
  if (constants.blocks_per_roll_snapshot !== undefined) {
    return {
      kind: 'emmy',
      cycleLength,
      every: Number(constants.blocks_per_roll_snapshot),
      delay,
      lag,
      tokensPerRoll: asBigInt(constants.tokens_per_roll) ?? null,
    };
  }
  if (constants.blocks_per_stake_snapshot !== undefined)
    return {
      kind: 'tenderbake',
      cycleLength,
      every: Number(constants.blocks_per_stake_snapshot),
      delay,
      lag,
      tokensPerRoll: null,
    };
  return { kind: 'paris', cycleLength, every: cycleLength, delay, lag, tokensPerRoll: null };
}

/** Several snapshots a cycle, one picked later (before Paris). */
export const picksSnapshot = (era: SnapshotEra): boolean => era.kind !== 'paris';

/** The snapshot index a block takes (its position in the cycle), or undefined when it takes none. */
export function snapshotIndexAt(era: SnapshotEra, cyclePosition: number): number | undefined {
  const next = cyclePosition + 1;
  return era.every > 0 && next % era.every === 0 ? next / era.every - 1 : undefined;
}

/**
 * The node's question for the index picked for `cycle`'s rights (asked at or after the cycle end
 * that picks it): Emmy's raw context `cycle/<c>` holds it as `roll_snapshot`; Tenderbake's is the
 * `selected_snapshot` RPC (Lima's RPC list has it, Ithaca's does not: older nodes answer nothing).
 */
export function selectedIndexQuery(
  era: SnapshotEra,
  cycle: number,
): { path: string; read: (answer: unknown) => unknown } | undefined {
  if (era.kind === 'emmy') return { path: `context/raw/json/cycle/${cycle}`, read: (a) => member(a, 'roll_snapshot') };
  if (era.kind === 'tenderbake') return { path: `context/selected_snapshot?cycle=${cycle}`, read: (a) => a };
  return undefined;
}

/** Row key of a snapshot row: `cycle_address` where a cycle has one snapshot, `cycle_index_address` before Paris. */
export function snapshotKey(era: SnapshotEra, cycle: number, index: number, address: string): string {
  return picksSnapshot(era) ? `${cycle}_${index}_${address}` : `${cycle}_${address}`;
}
