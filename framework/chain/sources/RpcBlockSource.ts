import type { RawBlock } from '../model/RawBlock';
import { ExponentialBackoff, type BackoffOptions } from '../rpc/ExponentialBackoff';
import type { RpcTransport } from '../rpc/RpcTransport';
import { UndiciRpcTransport } from '../rpc/UndiciRpcTransport';
import { TezosRpcClient, type TezosRpcClientOptions } from '../rpc/TezosRpcClient';
import type { MonitorHead } from '../rpc/RpcTypes';
import { abortableSleep, type SleepFn } from '../support/abortableSleep';
import { silentChainLogger, type ChainLogger } from '../support/ChainLogger';
import type { BlockRef, BlockSource } from './BlockSource';
import { BlockSourceError } from './BlockSourceError';

export interface RpcBlockSourceOptions extends TezosRpcClientOptions {
  /** Delay between reconnects of the head monitor. Default 1 s doubling to 30 s. */
  reconnectBackoff?: BackoffOptions;
}

function headRef(head: MonitorHead): BlockRef {
  return {
    hash: head.hash,
    level: head.level,
    predecessor: head.predecessor,
    timestamp: head.timestamp,
    fitness: head.fitness,
  };
}

/** Blocks from a live node: by level/hash through the RPC, new heads through `/monitor/heads/main`. */
export class RpcBlockSource implements BlockSource {
  readonly kind = 'rpc' as const;
  readonly live = true;
  readonly client: TezosRpcClient;
  private readonly logger: ChainLogger;
  private readonly reconnect: ExponentialBackoff;
  private readonly sleep: SleepFn;
  private readonly ownsTransport: boolean;
  private knownHeadLevel = -1;

  /** `target`: a node URL, any `RpcTransport` (e.g. the sandbox), or a ready client. */
  constructor(target: string | RpcTransport | TezosRpcClient, options: RpcBlockSourceOptions = {}) {
    this.client = target instanceof TezosRpcClient ? target : new TezosRpcClient(target, options);
    this.ownsTransport = typeof target === 'string';
    this.logger = options.logger ?? silentChainLogger;
    this.reconnect = new ExponentialBackoff({ baseMs: 1_000, maxMs: 30_000, ...options.reconnectBackoff });
    this.sleep = options.sleep ?? abortableSleep;
  }

  async head(signal?: AbortSignal): Promise<BlockRef> {
    const header = await this.client.header('head', signal);
    if (header === undefined) throw new BlockSourceError('the node has no head block');
    this.knownHeadLevel = Math.max(this.knownHeadLevel, header.level);
    return {
      hash: header.hash,
      level: header.level,
      predecessor: header.predecessor,
      timestamp: header.timestamp,
      fitness: header.fitness,
    };
  }

  firstLevel(signal?: AbortSignal): Promise<number> {
    return this.client.savepointLevel(signal);
  }

  async nextLevel(after: number, signal?: AbortSignal): Promise<number | undefined> {
    const next = after + 1;
    if (next > this.knownHeadLevel) await this.head(signal);
    return next <= this.knownHeadLevel ? next : undefined;
  }

  blockAt(level: number, signal?: AbortSignal): Promise<RawBlock | undefined> {
    return this.client.block(level, signal);
  }

  blockRpc(level: number, path: string, signal?: AbortSignal): Promise<unknown> {
    return this.client.blockJson(level, path, signal);
  }

  blockByHash(hash: string, signal?: AbortSignal): Promise<RawBlock | undefined> {
    return this.client.block(hash, signal);
  }

  /**
   * Follows the node's head until `signal` aborts. A closed or failed stream is reopened after a
   * backoff; the head the node repeats first after a reconnect is not yielded twice.
   */
  async *heads(signal?: AbortSignal): AsyncIterable<BlockRef> {
    let failures = 0;
    let last: string | undefined;
    while (!signal?.aborted) {
      try {
        for await (const head of this.client.monitorHeads(signal)) {
          failures = 0;
          this.knownHeadLevel = Math.max(this.knownHeadLevel, head.level);
          if (head.hash === last) continue;
          last = head.hash;
          yield headRef(head);
        }
        if (signal?.aborted) return;
        this.logger.warn({ attempt: failures + 1 }, 'head monitor stream ended; reconnecting');
      } catch (err) {
        if (signal?.aborted) return;
        this.logger.warn(
          { attempt: failures + 1, error: (err as Error).message },
          'head monitor stream failed; reconnecting',
        );
      }
      try {
        await this.sleep(this.reconnect.delay(failures++), signal);
      } catch {
        return;
      }
    }
  }

  /** Closes the HTTP pool if this source created it from a URL; injected transports stay open. */
  async close(): Promise<void> {
    if (this.ownsTransport && this.client.transport instanceof UndiciRpcTransport) await this.client.transport.close();
  }
}
