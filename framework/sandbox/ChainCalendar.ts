import type { SandboxProfile } from './profiles';

export const VOTING_PERIOD_KINDS = ['proposal', 'exploration', 'cooldown', 'promotion', 'adoption'] as const;
export type VotingPeriodKind = (typeof VOTING_PERIOD_KINDS)[number];

export interface LevelInfo {
  level: number;
  level_position: number;
  cycle: number;
  cycle_position: number;
  expected_commitment: boolean;
}

export interface VotingPeriodInfo {
  voting_period: { index: number; kind: VotingPeriodKind; start_position: number };
  position: number;
  remaining: number;
}

/**
 * Level → cycle and voting-period arithmetic of a chain whose current protocol was activated at level 1
 * (level_position = level − 1), as `metadata.level_info` / `voting_period_info` report it.
 * Governance always succeeds in the sandbox, so the period kinds simply rotate.
 */
export class ChainCalendar {
  constructor(private readonly profile: SandboxProfile) {}

  get blocksPerCycle(): number {
    return this.profile.blocksPerCycle;
  }

  get votingPeriodLength(): number {
    return this.profile.blocksPerCycle * this.profile.cyclesPerVotingPeriod;
  }

  /** Seconds from a block to its successor baked at `round` (`delay_increment_per_round` is 3 s). */
  secondsToNext(round: number): number {
    const delay = this.profile.minimalBlockDelay;
    return delay + round * (delay + 3);
  }

  cycleOf(level: number): number {
    return Math.floor(Math.max(level - 1, 0) / this.profile.blocksPerCycle);
  }

  firstLevelOfCycle(cycle: number): number {
    return cycle * this.profile.blocksPerCycle + 1;
  }

  lastLevelOfCycle(cycle: number): number {
    return (cycle + 1) * this.profile.blocksPerCycle;
  }

  isCycleEnd(level: number): boolean {
    return level % this.profile.blocksPerCycle === 0;
  }

  levelInfo(level: number): LevelInfo {
    const position = level - 1;
    const cyclePosition = position % this.profile.blocksPerCycle;
    return {
      level,
      level_position: position,
      cycle: this.cycleOf(level),
      cycle_position: cyclePosition,
      expected_commitment: (cyclePosition + 1) % this.profile.blocksPerCommitment === 0,
    };
  }

  votingPeriodInfo(level: number): VotingPeriodInfo {
    const position = level - 1;
    const length = this.votingPeriodLength;
    const index = Math.floor(position / length);
    const start = index * length;
    return {
      voting_period: { index, kind: VOTING_PERIOD_KINDS[index % VOTING_PERIOD_KINDS.length], start_position: start },
      position: position - start,
      remaining: length - (position - start) - 1,
    };
  }
}
