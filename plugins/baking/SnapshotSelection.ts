import { asBigInt, type IndexContext, isRecord, member } from '../../framework';
import { selectedIndexQuery, type SnapshotEra } from './SnapshotEra';

/**
 * Which of a cycle's snapshots counted, before Paris. The pick is a draw from the cycle's random seed
 * that no receipt shows, so it is asked of the node at the cycle end that makes it, and the rows of
 * the picked snapshot are marked `is_selected` through the entity store (a rollback unmarks them).
 * Tenderbake's picked baker rows also get the stake the node counted for the rights (`active_stake`).
 * Without a node nothing is marked.
 */
export class SnapshotSelection {
  /** Picked index by snapshot cycle, for the block being indexed only (a reorg may re-pick). */
  private readonly cache = new Map<number, number | null>();
  private cacheBlock = '';

  /** At the end of `cycle`: marks the snapshot picked for the rights of cycle + delay + 1. */
  async pick(ctx: IndexContext, era: SnapshotEra, cycle: number): Promise<void> {
    const rightsCycle = cycle + era.delay + 1;
    const query = selectedIndexQuery(era, rightsCycle);
    if (!query) return;
    const index = asIndex(query.read(await ctx.node(query.path)));
    if (index === null) return;
    const base = rightsCycle - era.lag;
    const store = ctx.entities('snapshot', 'row_key');
    const keys = new Set<string>();
    for (const r of await ctx.read('snapshot').where({ cycle: base, index }).select('row_key'))
      keys.add(String(r.row_key));
    for (const e of store.pending())
      if (Number(e.cycle) === base && Number(e.index) === index) keys.add(String(e.row_key));
    const counted =
      era.kind === 'tenderbake'
        ? stakeDistribution(await ctx.node(`context/raw/json/cycle/${rightsCycle}`))
        : undefined;
    await store.preload(keys);
    for (const key of [...keys].sort()) {
      const row = await store.get(key);
      if (!row) continue;
      // A baker missing from the node's distribution had no stake counted.
      store.update(
        row,
        counted && row.is_baker === true
          ? { is_selected: true, active_stake: counted.get(String(row.address)) ?? 0n }
          : { is_selected: true },
      );
    }
    this.cache.delete(base);
  }

  /** The index marked among `cycle`'s snapshots (this batch's rows first); null when none is. */
  async selectedIndex(ctx: IndexContext, cycle: number): Promise<number | null> {
    if (ctx.block.hash !== this.cacheBlock) {
      this.cache.clear();
      this.cacheBlock = ctx.block.hash;
    }
    const hit = this.cache.get(cycle);
    if (hit !== undefined) return hit;
    let index: number | null = null;
    for (const e of ctx.entities('snapshot', 'row_key').pending())
      if (Number(e.cycle) === cycle && e.is_selected === true) index = Number(e.index);
    if (index === null) {
      const row = await ctx.read('snapshot').where({ cycle, is_selected: true }).first('index');
      index = row ? Number(row.index) : null;
    }
    this.cache.set(cycle, index);
    return index;
  }
}

/**
 * The stake counted per baker for a cycle's rights, from the raw context `cycle/<c>` (Ithaca..Oxford):
 * `selected_stake_distribution` entries `{baker, active_stake}`, the stake a single integer up to
 * Nairobi and `{frozen, delegated}` in Oxford. Undefined when the node does not tell it.
 */
function stakeDistribution(answer: unknown): Map<string, bigint> | undefined {
  const list = member(answer, 'selected_stake_distribution');
  if (!Array.isArray(list)) return undefined;
  const out = new Map<string, bigint>();
  for (const e of list) {
    const stake = member(e, 'active_stake');
    const value = isRecord(stake)
      ? (asBigInt(stake.frozen) ?? 0n) + (asBigInt(stake.delegated) ?? 0n)
      : asBigInt(stake);
    const baker = member(e, 'baker');
    if (typeof baker !== 'string' || value === undefined) return undefined;
    out.set(baker, value);
  }
  return out;
}

/** The node's answer as a snapshot index; null for anything else (no node, an older node without the RPC). */
function asIndex(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
}
