/**
 * Voting power: rolls in listings up to Ithaca, mutez of stake from Jakarta on (roll listings get stake = rolls ×
 * tokens_per_roll).
 */
export interface Power {
  rolls: bigint;
  stake: bigint;
}

export const NO_POWER: Power = { rolls: 0n, stake: 0n };

/** Percentages are in hundredths of a percent, as the protocol counts them (8000 = 80.00 %). */
const HUNDRED_PERCENT = 10_000n;

export function addPower(a: Power, b: Power): Power {
  return { rolls: a.rolls + b.rolls, stake: a.stake + b.stake };
}

/** The unit the protocol counted in: rolls while listings had rolls, stake after. */
export function counted(p: Power, eligible: Power): bigint {
  return eligible.rolls > 0n ? p.rolls : p.stake;
}

/** `part` of `whole` in hundredths of a percent, rounded down as the protocol does; 0 for an empty whole. */
export function percentOf(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * HUNDRED_PERCENT) / whole);
}

/** The share of `whole` a percentage (in hundredths) asks for, rounded down. */
export function shareOf(whole: bigint, pct: number): bigint {
  return (whole * BigInt(pct)) / HUNDRED_PERCENT;
}

/**
 * Why an exploration or promotion vote fails: participation (all ballots) below the quorum, or yay
 * below the 80 % supermajority of yay + nay (`yay ≥ 8 × (yay + nay) / 10`, as Octez computes it).
 */
export function ballotFailures(
  yay: bigint,
  nay: bigint,
  turnout: bigint,
  eligible: bigint,
  quorumPct: number,
): { noQuorum: boolean; noMajority: boolean } {
  return { noQuorum: percentOf(turnout, eligible) < quorumPct, noMajority: yay < (8n * (yay + nay)) / 10n };
}

/**
 * Why a proposal period with proposals has no winner: the most supported proposals tie, or the top
 * support is below `min_proposal_quorum` of the eligible power (Babylon on; 0 before).
 */
export function proposalFailures(
  supports: readonly bigint[],
  eligible: bigint,
  minQuorumPct: number,
): { isDraw: boolean; noQuorum: boolean } {
  const top = supports.reduce((m, s) => (s > m ? s : m), 0n);
  return {
    isDraw: top > 0n && supports.filter((s) => s === top).length > 1,
    noQuorum: top < shareOf(eligible, minQuorumPct),
  };
}

/**
 * The participation EMA behind a Babylon+ quorum (`quorum = min + ema × (max − min)`): the smallest EMA
 * that gives it, which is within (max − min) / 10000 of the protocol's value.
 */
export function emaOfQuorum(quorum: number, min: number, max: number): number {
  if (max <= min || quorum <= min) return 0;
  return Math.ceil(((quorum - min) * Number(HUNDRED_PERCENT)) / (max - min));
}
