/** A raw HTTP answer of the node: status code and the whole body as text. */
export interface RpcResponse {
  status: number;
  body: string;
}

/**
 * How the client reaches a node. `UndiciRpcTransport` talks HTTP; the sandbox provides an in-process
 * implementation. Transports do not retry: `TezosRpcClient` owns timeouts, retries and error typing.
 */
export interface RpcTransport {
  /** GET `path` (absolute RPC path with query, e.g. `/chains/main/blocks/head/header`). */
  get(path: string, signal?: AbortSignal): Promise<RpcResponse>;
  /**
   * Streams `/monitor/heads/main`: one parsed JSON value per head, the current head first.
   * Ends when the node closes the stream or `signal` aborts; throws on transport errors or broken JSON.
   */
  monitorHeads(signal: AbortSignal): AsyncIterable<unknown>;
}
