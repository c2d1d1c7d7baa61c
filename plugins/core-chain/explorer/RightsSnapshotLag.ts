import { snapshotLag } from '../../../framework';
import { ChainTables } from './ChainTables';

export interface ProtocolSpan {
  startCycle: number;
  constants: Record<string, unknown> | undefined;
}

/**
 * Which stake snapshot a cycle's rights were drawn from, as the protocol that drew them counts. The
 * rights of cycle c are drawn at the end of cycle c − delay − 1 by the protocol running then, with
 * its own delay and snapshot lag (framework snapshotLag). The constants of c's own protocol, or of the
 * newest, give the wrong snapshot cycle across an era change: at Ithaca (lag preserved_cycles + 2 →
 * + 1) and at Paris (preserved_cycles 5 → consensus_rights_delay 2).
 */
export class RightsSnapshotLag {
  constructor(private readonly tables: ChainTables) {}

  /** Cycles between `cycle` and the snapshot cycle of its rights; undefined when no indexed protocol drew them. */
  async of(cycle: number): Promise<number | undefined> {
    return rightsLag(cycle, await this.spans());
  }

  /** The cycle whose rights a snapshot cycle's selected snapshot gave; undefined when unknown. */
  async rightsCycleOf(snapshotCycle: number): Promise<number | undefined> {
    return rightsCycle(snapshotCycle, await this.spans());
  }

  /**
   * Both of a cycle, from one read of the protocols: the snapshot cycle behind its rights and the cycle its snapshot
   * gave rights to.
   */
  async around(cycle: number): Promise<{ snapshotCycle?: number; follower?: number }> {
    const spans = await this.spans();
    const lag = rightsLag(cycle, spans);
    return { snapshotCycle: lag === undefined ? undefined : cycle - lag, follower: rightsCycle(cycle, spans) };
  }

  /** The indexed protocols with the cycle of their first main-chain block, oldest first (a handful of rows). */
  private async spans(): Promise<ProtocolSpan[]> {
    const p = this.tables.def('protocol');
    const b = this.tables.def('block');
    const rows: Array<{ cycle: unknown; constants: unknown }> = await this.tables.db.reader
      .from({ p: `${p.schema}.${p.storage}` })
      .join({ b: `${b.schema}.${b.storage}` }, (j) => j.on('b.height', 'p.height').andOnVal('b.is_orphan', false))
      .orderBy('p.height')
      .select('b.cycle', 'p.constants');
    return rows.map((r) => ({
      startCycle: Number(r.cycle),
      constants: (typeof r.constants === 'string' ? JSON.parse(r.constants) : r.constants) ?? undefined,
    }));
  }
}

/**
 * The lag of the protocol that ran at the end of the cycle drawing `cycle`'s rights under its own
 * delay; where two protocols both fit (a shorter delay after a longer one, Paris), the newer wins.
 */
export function rightsLag(cycle: number, spans: readonly ProtocolSpan[]): number | undefined {
  for (const span of [...spans].reverse()) {
    const lag = snapshotLag(span.constants);
    if (lag === undefined) continue;
    const drawnAt = cycle - Number(span.constants!.consensus_rights_delay ?? span.constants!.preserved_cycles) - 1;
    if (activeAt(spans, drawnAt) === span) return lag;
  }
  return undefined;
}

/** The cycle whose rights a snapshot of `snapshotCycle` gave: the one whose lag leads back to it. */
export function rightsCycle(snapshotCycle: number, spans: readonly ProtocolSpan[]): number | undefined {
  for (const lag of new Set(spans.map((s) => snapshotLag(s.constants)))) {
    if (lag !== undefined && rightsLag(snapshotCycle + lag, spans) === lag) return snapshotCycle + lag;
  }
  return undefined;
}

/** The span running at the end of `cycle`: the last to start at or before it (the first before the index began). */
function activeAt(spans: readonly ProtocolSpan[], cycle: number): ProtocolSpan | undefined {
  let out = spans[0];
  for (const s of spans) if (s.startCycle <= cycle) out = s;
  return out;
}
