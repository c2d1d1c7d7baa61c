import type { IndexContext } from '../../framework';
import { isBallotKind, type PeriodKind } from './PeriodKind';
import { addPower, emaOfQuorum, NO_POWER, type Power } from './PeriodRules';

/** What the node knows about a voting period, asked once at its first indexed block. */
export interface PeriodFacts {
  /** Voting power by baker (empty without a node). */
  listings: Map<string, Power>;
  eligible: Power;
  /**
   * Quorum in hundredths of a percent: `current_quorum` for ballots, `min_proposal_quorum` for proposals, 0 otherwise.
   */
  quorumPct: number;
  /** Participation EMA the quorum comes from (Babylon+ ballot periods), else 0. */
  turnoutEma: number;
  plannedEndHeight?: number;
  plannedEndTime?: Date;
  /** The proposal under vote (`votes/current_proposal`) in the periods after a proposal period. */
  currentProposal?: string;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
const mutez = (v: unknown): bigint | undefined =>
  typeof v === 'string' && /^\d+$/.test(v)
    ? BigInt(v)
    : typeof v === 'number' && Number.isInteger(v)
      ? BigInt(v)
      : undefined;

/**
 * Reads a period's listings, quorum, length and proposal from the node (`ctx.node`, inside the batch's
 * transaction: up to five requests per period). Without a node, or where it keeps no such data,
 * the facts stay empty and the period is indexed without power, quorum and planned end.
 */
export async function readPeriodFacts(ctx: IndexContext, kind: PeriodKind): Promise<PeriodFacts> {
  const constants = ctx.block.constants ?? (await ctx.node('context/constants'));
  const c: Json = isRecord(constants) ? constants : {};
  const listings = parseListings(await ctx.node('votes/listings'), mutez(c.tokens_per_roll) ?? 0n);
  const eligible = [...listings.values()].reduce(addPower, NO_POWER);
  let quorumPct = 0;
  let turnoutEma = 0;
  // `min_proposal_quorum` exists from Babylon on.
  if (kind === 'proposal') quorumPct = int(c.min_proposal_quorum) ?? 0;
  if (isBallotKind(kind)) {
    quorumPct = int(await ctx.node('votes/current_quorum')) ?? 0;
    const min = int(c.quorum_min);
    const max = int(c.quorum_max);
    if (min !== undefined && max !== undefined) turnoutEma = emaOfQuorum(quorumPct, min, max);
  }
  const remaining = await plannedRemaining(ctx, c);
  const delay =
    int(c.minimal_block_delay) ?? (Array.isArray(c.time_between_blocks) ? int(c.time_between_blocks[0]) : undefined);
  const block = ctx.block;
  const proposal = kind === 'proposal' ? undefined : await ctx.node('votes/current_proposal');
  return {
    listings,
    eligible,
    quorumPct,
    turnoutEma,
    plannedEndHeight: remaining === undefined ? undefined : block.level + remaining,
    plannedEndTime:
      remaining === undefined || delay === undefined ? undefined : new Date(block.time + remaining * delay * 1000),
    currentProposal: typeof proposal === 'string' ? proposal : undefined,
  };
}

/** `[{pkh, rolls}]` up to Ithaca, `[{pkh, voting_power}]` (mutez) from Jakarta on. */
export function parseListings(raw: unknown, tokensPerRoll: bigint): Map<string, Power> {
  const out = new Map<string, Power>();
  if (!Array.isArray(raw)) return out;
  for (const entry of raw) {
    if (!isRecord(entry) || typeof entry.pkh !== 'string') continue;
    const rolls = int(entry.rolls);
    const power =
      rolls !== undefined
        ? { rolls: BigInt(rolls), stake: BigInt(rolls) * tokensPerRoll }
        : { rolls: 0n, stake: mutez(entry.voting_power) ?? 0n };
    out.set(entry.pkh, power);
  }
  return out;
}

/**
 * Blocks left in the period after this one: the block's own receipt (Florence on), else the node's
 * `votes/current_period` (Edo on), else the period length from a first block.
 */
async function plannedRemaining(ctx: IndexContext, constants: Json): Promise<number | undefined> {
  if (ctx.block.votingPeriodRemaining !== undefined) return ctx.block.votingPeriodRemaining;
  const info = await ctx.node('votes/current_period');
  if (isRecord(info)) return int(info.remaining);
  const length = int(constants.blocks_per_voting_period);
  return length === undefined ? undefined : length - 1;
}
