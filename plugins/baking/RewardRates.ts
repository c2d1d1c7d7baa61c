import { bigOrZero, type IndexContext, type NormalizedBlock, asRecords } from '../../framework';

/**
 * What the rights of one cycle are worth (mutez): a round-0 block with its full bonus (every slot
 * attesting), and one block's attesting reward, shared by the committee's slots.
 */
export interface CycleRewards {
  readonly block: bigint;
  readonly attestingPerBlock: bigint;
  readonly committee: bigint;
}

type Json = Readonly<Record<string, unknown>>;
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/**
 * Reward rates by era, as tzindex values rights: from Paris on (adaptive issuance) the node's
 * `context/issuance/expected_issuance` for the cycle (per-slot fields up to Seoul, per-block ones
 * from Ushuaia on); Tenderbake before it the protocol constants' fixed portion, bonus per slot and
 * reward per slot; Emmy the constants' first (all-endorsed) block and endorsement rewards. Constants
 * come with each run's first block of a protocol. Undefined when neither is known (no node, archives).
 */
export class RewardRates {
  private readonly constants = new Map<string, Json>();

  note(block: NormalizedBlock): void {
    if (block.constants) this.constants.set(block.protocol, block.constants);
  }

  async of(ctx: IndexContext, protocol: string, cycle: number): Promise<CycleRewards | undefined> {
    const c = this.constants.get(protocol);
    const committee = bigOrZero(c?.consensus_committee_size ?? c?.endorsers_per_block);
    if (!c || committee === 0n) return undefined;
    const bonusSlots = committee - bigOrZero(c.consensus_threshold_size ?? c.consensus_threshold);
    const issuance = ctx.block.consensus === 'emmy' ? undefined : await ctx.node('context/issuance/expected_issuance');
    if (Array.isArray(issuance)) {
      const e = asRecords(issuance).find((x) => Number(x.cycle) === cycle);
      if (!e) return undefined;
      if (e.baking_reward_bonus_per_block !== undefined)
        return {
          block: bigOrZero(e.baking_reward_fixed_portion) + bigOrZero(e.baking_reward_bonus_per_block),
          attestingPerBlock: bigOrZero(e.attesting_reward_per_block),
          committee,
        };
      return {
        block: bigOrZero(e.baking_reward_fixed_portion) + bigOrZero(e.baking_reward_bonus_per_slot) * bonusSlots,
        attestingPerBlock: bigOrZero(e.attesting_reward_per_slot) * committee,
        committee,
      };
    }
    if (c.baking_reward_fixed_portion !== undefined)
      return {
        block: bigOrZero(c.baking_reward_fixed_portion) + bigOrZero(c.baking_reward_bonus_per_slot) * bonusSlots,
        attestingPerBlock: bigOrZero(c.endorsing_reward_per_slot) * committee,
        committee,
      };
    if (c.baking_reward_per_endorsement !== undefined)
      return {
        block: bigOrZero(first(c.baking_reward_per_endorsement)) * committee,
        attestingPerBlock: bigOrZero(first(c.endorsement_reward)) * committee,
        committee,
      };
    if (c.block_reward !== undefined)
      return {
        block: bigOrZero(c.block_reward),
        attestingPerBlock: bigOrZero(c.endorsement_reward) * committee,
        committee,
      };
    return undefined;
  }
}

/**
 * Value of a baker's rights: round-0 blocks at the full block reward, slots at their share of a block's attesting
 * reward.
 */
export function rightsValue(r: CycleRewards, blocks: bigint, slots: bigint): bigint {
  return blocks * r.block + (slots * r.attestingPerBlock) / r.committee;
}
