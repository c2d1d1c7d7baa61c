import { createHash } from 'node:crypto';
import type { RpcResponse, RpcTransport } from '../../../framework/chain/rpc/RpcTransport';
import { SandboxRpcTransport, type SandboxChain } from '../../../framework/sandbox';
import { STAKE_CONSTANTS } from '../../../framework/sandbox/DelegateStake';
import type { StakeShare } from '../../../framework/sandbox/StakeSnapshots';

type Json = Record<string, unknown>;

/**
 * A sandbox node speaking like Ithaca..Oxford about stake snapshots: its constants add
 * `blocks_per_stake_snapshot` and `preserved_cycles`, and `context/selected_snapshot?cycle=c` answers
 * the index picked among the snapshots of cycle c − preserved_cycles − 1, known from that cycle's
 * end on. The pick is this node's own draw from the hash of that cycle's last block (as the protocol
 * draws from the cycle's seed), so a reorg that replaces the block re-picks. The oracle for the
 * indexer's snapshot rows; `pick: false` is a node without the RPC (Ithaca's list has none). The raw
 * context `cycle/<c>` gives the sandbox's own distribution of the stake counted for cycle c's rights
 * (`selected_stake_distribution`, as up to Nairobi).
 */
export class PreParisNode implements RpcTransport {
  private readonly inner: SandboxRpcTransport;

  constructor(
    private readonly chain: SandboxChain,
    readonly every: number,
    private readonly pick = true,
  ) {
    this.inner = new SandboxRpcTransport(chain);
  }

  get cycleLength(): number {
    return this.chain.profile.blocksPerCycle;
  }

  /** preserved_cycles: the sandbox's consensus_rights_delay. */
  get delay(): number {
    return STAKE_CONSTANTS.consensusRightsDelay;
  }

  /** Cycle and position of a level on the current branch. */
  levelInfo(level: number): { cycle: number; cycle_position: number } {
    return (
      JSON.parse(this.chain.blockJson(this.chain.at(level)!)) as {
        metadata: { level_info: { cycle: number; cycle_position: number } };
      }
    ).metadata.level_info;
  }

  /** Level of cycle `cycle`'s last block on the current branch; undefined when it is not baked. */
  cycleEnd(cycle: number): number | undefined {
    for (let l = 1; l <= this.chain.headLevel; l++) {
      const i = this.levelInfo(l);
      if (i.cycle === cycle && i.cycle_position === this.cycleLength - 1) return l;
    }
    return undefined;
  }

  /** The index picked among cycle `cycle`'s snapshots, from its last block's hash; undefined before that block. */
  picked(cycle: number): number | undefined {
    const end = this.cycleEnd(cycle);
    if (end === undefined || cycle < 0) return undefined;
    const digest = createHash('sha256').update(this.chain.at(end)!.hash).digest();
    return digest.readUInt32BE(0) % (this.cycleLength / this.every);
  }

  async get(path: string): Promise<RpcResponse> {
    const m = /^\/chains\/main\/blocks\/([^/]+)\/(.*)$/.exec(path);
    if (m?.[2] === 'context/constants') {
      const res = await this.inner.get(path);
      if (res.status !== 200) return res;
      const c = JSON.parse(res.body) as Json;
      return {
        ...res,
        body: JSON.stringify({
          ...c,
          blocks_per_stake_snapshot: this.every,
          preserved_cycles: c.consensus_rights_delay,
        }),
      };
    }
    const selected = m && /^context\/selected_snapshot\?cycle=(\d+)$/.exec(m[2]);
    if (selected) {
      const base = Number(selected[1]) - this.delay - 1;
      const at = this.chain.resolve(m[1])?.level ?? -1;
      const end = this.cycleEnd(base);
      const index = this.pick && end !== undefined && at >= end ? this.picked(base) : undefined;
      return index === undefined ? { status: 404, body: '[]' } : { status: 200, body: JSON.stringify(index) };
    }
    const raw = m && /^context\/raw\/json\/cycle\/(\d+)$/.exec(m[2]);
    if (raw) {
      const shares = this.counted(Number(raw[1]), this.chain.resolve(m[1])?.level ?? -1);
      return shares
        ? {
            status: 200,
            body: JSON.stringify({
              selected_stake_distribution: shares.map((s) => ({ baker: s.address, active_stake: String(s.power) })),
            }),
          }
        : { status: 404, body: '[]' };
    }
    return this.inner.get(path);
  }

  /** The sandbox's own record of the stake counted for `cycle`'s rights, as known at level `at`. */
  counted(cycle: number, at = this.chain.headLevel): readonly StakeShare[] | undefined {
    const picker = cycle - this.delay - 1;
    const end = picker < 0 ? 0 : this.cycleEnd(picker);
    return end !== undefined && at >= end ? this.chain.stake.forCycle(cycle)?.shares : undefined;
  }

  monitorHeads(signal: AbortSignal): AsyncIterable<unknown> {
    return this.inner.monitorHeads(signal);
  }
}
