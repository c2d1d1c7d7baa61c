import type { IndexContext } from '../../framework';

type Json = Record<string, unknown>;
const isList = (v: unknown): v is Json[] => Array.isArray(v);

/** Round-0 baking rights of a whole cycle by position (one entry per level: small even on mainnet). */
export async function nodeBakingRights(
  ctx: IndexContext,
  cycle: number,
  start: number,
): Promise<Map<number, string> | undefined> {
  const emmy = ctx.block.consensus === 'emmy';
  const baking = await ctx.node(`helpers/baking_rights?cycle=${cycle}&${emmy ? 'max_priority' : 'max_round'}=0`);
  if (!isList(baking)) return undefined;
  const out = new Map<number, string>();
  for (const r of baking) {
    const round = Number(r.round ?? r.priority ?? 0);
    if (round === 0 && typeof r.delegate === 'string') out.set(Number(r.level) - start, r.delegate);
  }
  return out;
}

/** Attestation rights of some levels: who may attest each position, and with how many slots. */
export interface AttestationWindow {
  readonly attesters: Map<number, Set<string>>;
  readonly slots: Map<string, number>;
}

/**
 * Asks the node for the attestation rights of the given levels, with the RPC name of the block's era
 * (`endorsing_rights` before Oxford). A whole cycle at once would be one answer of hundreds of
 * megabytes on mainnet (a level lists every committee member), so the indexer asks for a window of
 * levels at a time. Undefined when no node is behind the source: the rights stay unknown (null).
 */
export async function nodeAttestationRights(
  ctx: IndexContext,
  levels: readonly number[],
  start: number,
): Promise<AttestationWindow | undefined> {
  const query = levels.map((l) => `level=${l}`).join('&');
  let answer = ctx.block.consensus === 'emmy' ? undefined : await ctx.node(`helpers/attestation_rights?${query}`);
  if (!isList(answer)) answer = await ctx.node(`helpers/endorsing_rights?${query}`);
  if (!isList(answer)) return undefined;
  const attesters = new Map<number, Set<string>>();
  const slots = new Map<string, number>();
  for (const entry of answer) {
    const position = Number(entry.level) - start;
    // Tenderbake lists delegates per level; Emmy one entry per delegate and level with its slots.
    const members = isList(entry.delegates) ? entry.delegates : [entry];
    for (const m of members) {
      if (typeof m.delegate !== 'string') continue;
      const power = Number(
        m.attestation_power ?? m.endorsing_power ?? m.attesting_power ?? (Array.isArray(m.slots) ? m.slots.length : 0),
      );
      let set = attesters.get(position);
      if (!set) attesters.set(position, (set = new Set()));
      set.add(m.delegate);
      slots.set(m.delegate, (slots.get(m.delegate) ?? 0) + power);
    }
  }
  return { attesters, slots };
}
