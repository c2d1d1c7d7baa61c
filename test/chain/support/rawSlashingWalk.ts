import type { Json } from './Json';

/**
 * Why: from Oxford on a denunciation's receipt moves no tez; a later cycle-end block slashes the offender
 * in its own balance updates, each naming the denunciation (`delayed_operation_hash`). This reads what
 * each denunciation cost straight from the node JSON, independent of the indexer's flows: the credits to
 * the accuser (`rewarded_delegate`) are its volume; the offender's (`punished_delegate`) frozen debits by
 * sub-balance its negative fee, reward and deposit. Burns, and its stakers' debits, are no figure of it.
 */

export interface SlashingFigures {
  volume: bigint;
  fee: bigint;
  reward: bigint;
  deposit: bigint;
}

/** The account a frozen balance update belongs to: a single staker, else the baker it names. */
function ownerOf(staker: Json | undefined): string | undefined {
  if (!staker) return undefined;
  return staker.contract ?? staker.baker_own_stake ?? staker.baker_edge ?? staker.baker ?? staker.delegate;
}

/** Figures per denunciation hash, for the denunciations in these blocks (0 until a block slashes them). */
export function slashingFigures(blocks: readonly Json[]): Map<string, SlashingFigures> {
  const actors = new Map<string, { accuser: string; offender: string }>();
  const out = new Map<string, SlashingFigures>();
  for (const block of blocks) {
    for (const group of (block.operations ?? []).flat())
      for (const c of group.contents ?? []) {
        if (!String(c.kind).startsWith('double_')) continue;
        actors.set(group.hash, { accuser: c.metadata.rewarded_delegate, offender: c.metadata.punished_delegate });
        out.set(group.hash, { volume: 0n, fee: 0n, reward: 0n, deposit: 0n });
      }
    for (const u of block.metadata?.balance_updates ?? []) {
      const who = actors.get(u.delayed_operation_hash);
      if (u.origin !== 'delayed_operation' || !who) continue;
      const f = out.get(u.delayed_operation_hash)!;
      const change = BigInt(u.change);
      if (u.kind === 'contract' && u.contract === who.accuser && change > 0n) f.volume += change;
      if (u.kind !== 'freezer' || change >= 0n || ownerOf(u.staker) !== who.offender) continue;
      const category = String(u.category);
      if (category.includes('fees')) f.fee += change;
      else if (category.includes('rewards')) f.reward += change;
      else f.deposit += change;
    }
  }
  return out;
}
