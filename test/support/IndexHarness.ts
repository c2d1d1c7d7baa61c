import { BlockNormalizer, BlockRef, BlockSource, NormalizedBlock, RpcBlockSource } from '../../framework/chain';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import type { RpcTransport } from '../../framework/chain/rpc/RpcTransport';
import { IndexerOptions } from '../../framework/indexer/Indexer';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { TestInstance } from './TestInstance';

/** A finite source over blocks held in memory (fixtures, hand-made forks), best chain = given order. */
export class MemoryBlockSource implements BlockSource {
  readonly kind = 'memory';
  readonly live = false;
  private readonly byLevel = new Map<number, RawBlock>();
  private readonly byHash = new Map<string, RawBlock>();

  constructor(blocks: readonly RawBlock[]) {
    for (const b of blocks) {
      this.byLevel.set(levelOf(b), b);
      this.byHash.set(refOf(b).hash, b);
    }
  }
  async head(): Promise<BlockRef> {
    return refOf(this.byLevel.get(Math.max(...this.byLevel.keys()))!);
  }
  async firstLevel(): Promise<number> {
    return Math.min(...this.byLevel.keys());
  }
  async nextLevel(after: number): Promise<number | undefined> {
    const next = [...this.byLevel.keys()].filter((l) => l > after).sort((a, b) => a - b)[0];
    return next;
  }
  async blockAt(level: number): Promise<RawBlock | undefined> {
    return this.byLevel.get(level);
  }
  async blockByHash(hash: string): Promise<RawBlock | undefined> {
    return this.byHash.get(hash);
  }
  async *heads(): AsyncIterable<BlockRef> {
    yield await this.head();
  }
  async close(): Promise<void> {}
}

function levelOf(b: RawBlock): number {
  return (b as unknown as { header: { level: number } }).header.level;
}
function refOf(b: RawBlock): BlockRef {
  const raw = b as unknown as { hash: string; header: { level: number; predecessor: string } };
  return { hash: raw.hash, level: raw.header.level, predecessor: raw.header.predecessor };
}

/** Indexes the given blocks (lowest level first, no prior state needed) and waits until done. */
export async function indexBlocks(
  t: TestInstance,
  blocks: readonly RawBlock[],
  options: Partial<IndexerOptions> = {},
): Promise<IndexerStatus> {
  await t.app.startIndexer(new MemoryBlockSource(blocks), { retryDelayMs: 10, ...options });
  return checkedStatus(t);
}

/**
 * Indexes a sandbox chain up to its current head, in process (no HTTP), following reorgs it made;
 * `node` is the sandbox's transport unless one is given (a bench's recorded answers).
 */
export async function indexSandbox(
  t: TestInstance,
  chain: SandboxChain,
  options: Partial<IndexerOptions> = {},
  node: RpcTransport = new SandboxRpcTransport(chain),
): Promise<IndexerStatus> {
  const source = new RpcBlockSource(node);
  try {
    await t.app.startIndexer(source, { retryDelayMs: 10, toLevel: chain.headLevel, ...options });
  } finally {
    await source.close();
  }
  return checkedStatus(t);
}

function checkedStatus(t: TestInstance): IndexerStatus {
  const status = t.app.container.resolve(IndexerStatus);
  if (status.status === 'failed') throw new Error(`indexing failed: ${status.lastError}`);
  return status;
}

/** The main chain as the sandbox holds it now, normalized: the oracle for indexed tables. */
export function canonical(chain: SandboxChain): NormalizedBlock[] {
  const n = new BlockNormalizer();
  const out: NormalizedBlock[] = [];
  for (let l = 0; l <= chain.headLevel; l++)
    out.push(n.normalize(JSON.parse(chain.blockJson(chain.at(l)!)) as RawBlock));
  return out;
}
