import type { RawBlock } from '../model/RawBlock';

/** Identity and place of a block in the chain, without its content. */
export interface BlockRef {
  hash: string;
  level: number;
  predecessor: string;
  timestamp?: string;
  fitness?: string[];
}

/**
 * Where blocks come from: a node (`RpcBlockSource`) or recorded files (`ArchiveBlockSource`).
 * A run may start at any level with no prior state; levels the source does not hold answer
 * `undefined` (a gap is not an error).
 */
export interface BlockSource {
  readonly kind: 'rpc' | 'archive' | (string & {});
  /** True when `heads()` keeps following the chain; false for finite sources that can be exhausted. */
  readonly live: boolean;
  /** The current best block. */
  head(signal?: AbortSignal): Promise<BlockRef>;
  /** Lowest level the source can serve with receipts. */
  firstLevel(signal?: AbortSignal): Promise<number>;
  /** Next level after `after` that the source holds (archives skip gaps); undefined past the head. */
  nextLevel(after: number, signal?: AbortSignal): Promise<number | undefined>;
  /** The block at `level` on the source's best chain, undefined if the source has none. */
  blockAt(level: number, signal?: AbortSignal): Promise<RawBlock | undefined>;
  /**
   * A node RPC about the block at `level`: `path` under `/chains/main/blocks/{level}/` (for example
   * `context/constants`, `votes/listings`). Only sources with a node behind them have it; undefined
   * when the node does not keep that data (a pruned context).
   */
  blockRpc?(level: number, path: string, signal?: AbortSignal): Promise<unknown>;
  /** Any block the source holds, side branches included. */
  blockByHash(hash: string, signal?: AbortSignal): Promise<RawBlock | undefined>;
  /**
   * New heads. Live sources follow the node until `signal` aborts (reconnecting on their own);
   * an archive yields its final head once and then ends — the end of the iteration is the
   * exhaustion signal that lets an indexer report `synced`.
   */
  heads(signal?: AbortSignal): AsyncIterable<BlockRef>;
  /** Releases connections or file handles. */
  close(): Promise<void>;
}
