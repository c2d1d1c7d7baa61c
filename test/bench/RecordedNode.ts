import type { RpcResponse, RpcTransport } from '../../framework/chain/rpc/RpcTransport';

/**
 * A node's answers kept after the first time they were asked, so timed bench runs measure the
 * indexer and its plugins, not the in-process sandbox computing them (a real node does that work in
 * its own process: a whole cycle of rights, stake distributions, context reads).
 */
export class RecordedNode implements RpcTransport {
  private readonly answers = new Map<string, Promise<RpcResponse>>();

  constructor(private readonly node: RpcTransport) {}

  get(path: string, signal?: AbortSignal): Promise<RpcResponse> {
    let answer = this.answers.get(path);
    if (!answer) this.answers.set(path, (answer = this.node.get(path, signal)));
    return answer;
  }

  monitorHeads(signal: AbortSignal): AsyncIterable<unknown> {
    return this.node.monitorHeads(signal);
  }
}
