/** Families of manager operations the generator can emit; the profile weights choose among them. */
export type ManagerFamily =
  'transfer' | 'contractCall' | 'defi' | 'origination' | 'delegation' | 'staking' | 'rollup' | 'admin';

export type SandboxProfileName = 'tiny' | 'demo' | 'mainnet-like';

export interface SandboxProfile {
  readonly name: SandboxProfileName;
  readonly blocksPerCycle: number;
  readonly blocksPerCommitment: number;
  readonly cyclesPerVotingPeriod: number;
  /** Seconds between two round-0 blocks (`minimal_block_delay`). */
  readonly minimalBlockDelay: number;
  readonly consensusCommitteeSize: number;
  /** Bakers with tz1/tz2/tz3 consensus keys (individual attestations) and with tz4 keys (aggregated). */
  readonly bakers: number;
  readonly blsBakers: number;
  /** Share of committee members whose attestation makes it into the next block. */
  readonly attestationRate: number;
  /** Implicit user accounts at genesis, and the cap on accounts the chain may create later. */
  readonly users: number;
  readonly maxAccounts: number;
  /** Manager operation groups per block: uniform in [min, max], plus an occasional burst of `burst`. */
  readonly managerGroups: { min: number; max: number; burst: number; burstRate: number };
  readonly mix: Readonly<Record<ManagerFamily, number>>;
  /** Probability that a manager content fails (then earlier contents are backtracked, later ones skipped). */
  readonly failureRate: number;
  /** Probability of a re-proposal block at round 1 carrying preattestations. */
  readonly roundOneRate: number;
  /** Probability per block of a denunciation (double baking / double consensus evidence). */
  readonly denunciationRate: number;
  /** Blocks built before the node starts serving (demo) and the live baking interval. */
  readonly historyBlocks: number;
  readonly blockIntervalMs: number;
  /** Reorgs during live baking: probability per baked block and maximum depth. */
  readonly reorgRate: number;
  readonly reorgDepth: number;
}

const BASE_MIX: Record<ManagerFamily, number> = {
  transfer: 40,
  contractCall: 18,
  defi: 16,
  origination: 4,
  delegation: 4,
  staking: 8,
  rollup: 5,
  admin: 5,
};

export const PROFILES: Readonly<Record<SandboxProfileName, SandboxProfile>> = {
  // Tests: everything happens within a few dozen blocks (a cycle is 8 blocks, a voting period 16).
  tiny: {
    name: 'tiny',
    blocksPerCycle: 8,
    blocksPerCommitment: 4,
    cyclesPerVotingPeriod: 2,
    minimalBlockDelay: 6,
    consensusCommitteeSize: 64,
    bakers: 4,
    blsBakers: 2,
    attestationRate: 0.95,
    users: 16,
    maxAccounts: 48,
    managerGroups: { min: 2, max: 6, burst: 10, burstRate: 0.05 },
    mix: { ...BASE_MIX, origination: 6, admin: 8 },
    failureRate: 0.08,
    roundOneRate: 0.05,
    denunciationRate: 0.04,
    historyBlocks: 64,
    blockIntervalMs: 1000,
    reorgRate: 0,
    reorgDepth: 2,
  },
  // `npm start` without --rpc: a few thousand blocks of history, then one block per interval.
  demo: {
    name: 'demo',
    blocksPerCycle: 128,
    blocksPerCommitment: 16,
    cyclesPerVotingPeriod: 4,
    minimalBlockDelay: 6,
    consensusCommitteeSize: 512,
    bakers: 16,
    blsBakers: 6,
    attestationRate: 0.97,
    users: 200,
    maxAccounts: 600,
    managerGroups: { min: 2, max: 12, burst: 40, burstRate: 0.02 },
    mix: BASE_MIX,
    failureRate: 0.04,
    roundOneRate: 0.02,
    denunciationRate: 0.002,
    historyBlocks: 3000,
    blockIntervalMs: 6000,
    reorgRate: 0.01,
    reorgDepth: 2,
  },
  // Benchmarks: consensus traffic and block sizes of recent mainnet blocks (see docs/sandbox.md).
  'mainnet-like': {
    name: 'mainnet-like',
    blocksPerCycle: 14400,
    blocksPerCommitment: 240,
    cyclesPerVotingPeriod: 14,
    minimalBlockDelay: 6,
    consensusCommitteeSize: 7000,
    bakers: 155,
    blsBakers: 30,
    attestationRate: 0.98,
    users: 5000,
    maxAccounts: 20000,
    managerGroups: { min: 1, max: 7, burst: 60, burstRate: 0.02 },
    mix: BASE_MIX,
    failureRate: 0.03,
    roundOneRate: 0.01,
    denunciationRate: 0.0005,
    historyBlocks: 10000,
    blockIntervalMs: 6000,
    reorgRate: 0.002,
    reorgDepth: 2,
  },
};

export const PROFILE_NAMES = Object.keys(PROFILES) as SandboxProfileName[];

export function resolveProfile(profile: SandboxProfileName | SandboxProfile | undefined): SandboxProfile {
  if (profile === undefined) return PROFILES.demo;
  if (typeof profile !== 'string') return profile;
  const p = PROFILES[profile];
  if (!p) throw new Error(`unknown sandbox profile "${String(profile)}" (known: ${PROFILE_NAMES.join(', ')})`);
  return p;
}
