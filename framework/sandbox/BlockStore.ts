import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import type { ConsensusInput } from './operations/ConsensusFactory';

/** What is kept of a block: the header uncompressed (small, often read), the rest deflated. */
export interface StoredBlock {
  readonly level: number;
  readonly hash: string;
  readonly predecessor: string;
  readonly round: number;
  readonly payloadHash: string;
  readonly timestamp: string;
  /** `header` object as served, without protocol/chain_id/hash. */
  readonly header: Record<string, unknown>;
  /** Inputs to re-render pass 0 (consensus operations are not stored, see ConsensusFactory). */
  readonly consensus: ConsensusInput | undefined;
  /** JSON of `{ metadata, operations: [pass1, pass2, pass3] }`, deflated. */
  readonly body: Buffer;
}

/**
 * Blocks of the current branch, by level, plus a small cache of rendered JSON. Storage is compact
 * (deflated bodies, consensus operations re-rendered on demand) so long chains stay small.
 */
export class BlockStore {
  private readonly blocks: StoredBlock[] = [];
  private readonly byHash = new Map<string, number>();
  private readonly rendered = new Map<string, string>();

  constructor(private readonly cacheSize = 64) {}

  static pack(body: unknown): Buffer {
    return deflateRawSync(JSON.stringify(body), { level: constants.Z_BEST_SPEED });
  }

  static unpack(body: Buffer): { metadata: Record<string, unknown>; operations: unknown[][] } {
    return JSON.parse(inflateRawSync(body).toString('utf8'));
  }

  push(block: StoredBlock): void {
    if (block.level !== this.blocks.length)
      throw new Error(`BlockStore: expected level ${this.blocks.length}, got ${block.level}`);
    this.blocks.push(block);
    this.byHash.set(block.hash, block.level);
  }

  pop(): StoredBlock {
    const block = this.blocks.pop();
    if (!block) throw new Error('BlockStore: empty');
    this.byHash.delete(block.hash);
    this.rendered.delete(block.hash);
    return block;
  }

  get headLevel(): number {
    return this.blocks.length - 1;
  }

  at(level: number): StoredBlock | undefined {
    return Number.isInteger(level) && level >= 0 ? this.blocks[level] : undefined;
  }

  byBlockHash(hash: string): StoredBlock | undefined {
    const level = this.byHash.get(hash);
    return level === undefined ? undefined : this.blocks[level];
  }

  /** Cached rendering keyed by block hash (evicts the oldest entry). */
  cached(hash: string, render: () => string): string {
    const hit = this.rendered.get(hash);
    if (hit !== undefined) return hit;
    const json = render();
    this.rendered.set(hash, json);
    if (this.rendered.size > this.cacheSize) this.rendered.delete(this.rendered.keys().next().value as string);
    return json;
  }

  /** Compressed bytes held, for the memory figures in docs/sandbox.md. */
  get storedBytes(): number {
    return this.blocks.reduce((s, b) => s + b.body.length, 0);
  }
}
