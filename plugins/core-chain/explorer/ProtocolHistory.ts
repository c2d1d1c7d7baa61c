import type { Knex } from 'knex';
import { FINAL_DEPTH } from '../../../framework';
import { ChainTables } from './ChainTables';

export interface ProtocolRange {
  protocol: string;
  /** The chain's protocol sequence number (block header `proto`). */
  version: number;
  start_height: number;
  /** Last indexed height of the protocol; -1 while it is the head's protocol. */
  end_height: number;
}

interface BlockAt {
  hash: string;
  height: number;
  protocol: string;
  version: number;
}

/**
 * The protocols of the indexed main chain and the heights they ran at. A protocol runs over one
 * contiguous range of heights, so each end is found by bisection over the height index (a few dozen
 * point lookups per protocol) rather than by scanning every block. Ranges that ended deeper than a
 * reorg can reach never change and are kept.
 */
export class ProtocolHistory {
  private readonly blocks;
  private settled: { firstHash: string; ranges: ProtocolRange[] } | undefined;

  constructor(tables: ChainTables) {
    this.blocks = tables.rows('block', ['hash', 'height', 'protocol', 'version']);
  }

  async ranges(): Promise<ProtocolRange[]> {
    const first = await this.block(this.mainChain().orderBy('height'));
    const head = await this.block(this.mainChain().orderBy('height', 'desc'));
    if (!first || !head) return [];
    const out = this.settled?.firstHash === first.hash ? [...this.settled.ranges] : [];
    const last = out[out.length - 1];
    let start = last
      ? await this.block(this.mainChain().where('height', '>', last.end_height).orderBy('height'))
      : first;
    while (start) {
      if (start.protocol === head.protocol) {
        out.push({ protocol: start.protocol, version: start.version, start_height: start.height, end_height: -1 });
        break;
      }
      const end = await this.lastOf(start, head.height);
      out.push({ protocol: start.protocol, version: start.version, start_height: start.height, end_height: end });
      start = await this.block(this.mainChain().where('height', '>', end).orderBy('height'));
    }
    this.settled = {
      firstHash: first.hash,
      ranges: out.filter((r) => r.end_height !== -1 && r.end_height < head.height - FINAL_DEPTH),
    };
    return out;
  }

  /** The highest indexed height at which `start`'s protocol still ran (below `head`, which runs a later one). */
  private async lastOf(start: BlockAt, head: number): Promise<number> {
    let lo = start.height;
    let hi = head - 1;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      const at = await this.block(this.mainChain().where('height', '<=', mid).orderBy('height', 'desc'));
      // `start` itself is at or below mid, so there always is a block.
      if (at?.protocol === start.protocol) lo = mid;
      else hi = mid - 1;
    }
    const last = await this.block(this.mainChain().where('height', '<=', lo).orderBy('height', 'desc'));
    return last?.height ?? start.height;
  }

  private async block(q: Knex.QueryBuilder): Promise<BlockAt | undefined> {
    const row = await this.blocks.first(q);
    return row && { ...row, height: Number(row.height), version: Number(row.version) };
  }

  private mainChain(): Knex.QueryBuilder {
    return this.blocks.query().where('is_orphan', false);
  }

  /** The range of the protocol a block ran. */
  async rangeOf(protocol: string, height: number): Promise<ProtocolRange | undefined> {
    return (await this.ranges()).find(
      (r) => r.protocol === protocol && r.start_height <= height && (r.end_height === -1 || height <= r.end_height),
    );
  }
}
