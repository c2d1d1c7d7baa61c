import type { IndexContext } from '../../framework';
import { CycleRights } from './CycleRights';

/** Rights of one cycle as the node reports them, plus each baker's attestation slots over the cycle. */
export interface NodeCycleRights {
  rights: CycleRights;
  slots: Map<string, number>;
}

type Json = Record<string, unknown>;
const isList = (v: unknown): v is Json[] => Array.isArray(v);

/**
 * Asks the node for a cycle's round-0 baking rights and its attestation rights, with the RPC names of
 * the block's era (`max_priority` before Ithaca, `endorsing_rights` before Oxford). Undefined when no
 * node is behind the source: the rights then stay unknown (null), never guessed.
 */
export async function nodeRights(ctx: IndexContext, cycle: number, start: number): Promise<NodeCycleRights | undefined> {
  const emmy = ctx.block.consensus === 'emmy';
  const baking = await ctx.node(`helpers/baking_rights?cycle=${cycle}&${emmy ? 'max_priority' : 'max_round'}=0`);
  if (!isList(baking)) return undefined;
  let attesting = emmy ? undefined : await ctx.node(`helpers/attestation_rights?cycle=${cycle}`);
  if (!isList(attesting)) attesting = await ctx.node(`helpers/endorsing_rights?cycle=${cycle}`);
  if (!isList(attesting)) return undefined;
  const rights = new CycleRights(cycle, start);
  const slots = new Map<string, number>();
  for (const r of baking) {
    const round = Number(r.round ?? r.priority ?? 0);
    if (round === 0 && typeof r.delegate === 'string') rights.addBaking(Number(r.level) - start, r.delegate);
  }
  for (const entry of attesting) {
    const position = Number(entry.level) - start;
    // Tenderbake lists delegates per level; Emmy one entry per delegate and level with its slots.
    const members = isList(entry.delegates) ? entry.delegates : [entry];
    for (const m of members) {
      if (typeof m.delegate !== 'string') continue;
      const power = Number(m.attestation_power ?? m.endorsing_power ?? m.attesting_power ?? (Array.isArray(m.slots) ? m.slots.length : 0));
      rights.addAttester(position, m.delegate);
      slots.set(m.delegate, (slots.get(m.delegate) ?? 0) + power);
    }
  }
  return { rights, slots };
}
