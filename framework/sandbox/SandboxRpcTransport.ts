import type { HeadEvent, SandboxChain } from './SandboxChain';
import { SandboxNode, type RpcResponse } from './SandboxNode';

/**
 * In-process transport for the RPC client: the same answers as the HTTP sandbox, without a socket.
 * Structurally it is the client's transport (`get(path) → { status, body }`) plus a head stream.
 */
export class SandboxRpcTransport {
  readonly node: SandboxNode;

  constructor(readonly chain: SandboxChain) {
    this.node = new SandboxNode(chain);
  }

  async get(path: string): Promise<RpcResponse> {
    return this.node.handle('GET', path);
  }

  /**
   * `/monitor/heads/main` as parsed chunks: the current head first, then every new head, until
   * `signal` aborts.
   */
  async *monitorHeads(signal: AbortSignal): AsyncIterable<unknown> {
    const queue: HeadEvent[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = this.chain.onHead((e) => {
      queue.push(e);
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      yield this.node.monitorHead(this.chain.head);
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) {
          const block = this.chain.resolve(next.hash);
          // A head replaced again before it was read is skipped, as the node's stream would.
          if (block) yield this.node.monitorHead(block);
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }
}
