import type { IndexContext } from '../../framework';
import { selectedIndexQuery, type SnapshotEra } from './SnapshotEra';

/**
 * Which of a cycle's snapshots counted, before Paris. The pick is a draw from the cycle's random seed
 * that no receipt shows, so it is asked of the node at the cycle end that makes it, and the rows of
 * the picked snapshot are marked `is_selected` through the entity store (a rollback unmarks them).
 * Without a node nothing is marked.
 */
export class SnapshotSelection {
  /** Picked index by snapshot cycle, for the block being indexed only (a reorg may re-pick). */
  private readonly cache = new Map<number, number | null>();
  private cacheLevel = -1;

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
    for (const r of await ctx.read('snapshot').where({ cycle: base, index }).select('row_key')) keys.add(String(r.row_key));
    for (const e of store.pending()) if (Number(e.cycle) === base && Number(e.index) === index) keys.add(String(e.row_key));
    await store.preload(keys);
    for (const key of [...keys].sort()) {
      const row = await store.get(key);
      if (row) store.update(row, { is_selected: true });
    }
    this.cache.delete(base);
  }

  /** The index marked among `cycle`'s snapshots (this batch's rows first); null when none is. */
  async selectedIndex(ctx: IndexContext, cycle: number): Promise<number | null> {
    if (ctx.block.level !== this.cacheLevel) {
      this.cache.clear();
      this.cacheLevel = ctx.block.level;
    }
    const hit = this.cache.get(cycle);
    if (hit !== undefined) return hit;
    let index: number | null = null;
    for (const e of ctx.entities('snapshot', 'row_key').pending()) if (Number(e.cycle) === cycle && e.is_selected === true) index = Number(e.index);
    if (index === null) {
      const row = await ctx.read('snapshot').where({ cycle, is_selected: true }).first('index');
      index = row ? Number(row.index) : null;
    }
    this.cache.set(cycle, index);
    return index;
  }
}

/** The node's answer as a snapshot index; null for anything else (no node, an older node without the RPC). */
function asIndex(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
}
