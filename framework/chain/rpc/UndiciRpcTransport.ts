import { Agent, request, type Dispatcher } from 'undici';
import { JsonStreamSplitter } from './JsonStreamSplitter';
import { RpcArgumentError, RpcHttpError, RpcInvalidJsonError } from './RpcError';
import type { RpcResponse, RpcTransport } from './RpcTransport';

export interface UndiciRpcTransportOptions {
  /** Chain whose heads `monitorHeads` follows. Default `main`. */
  chain?: string;
  /** Max sockets to the node. Default 16. */
  connections?: number;
  /** Time allowed until response headers arrive (ms). Default 30 000. */
  headersTimeoutMs?: number;
  /** Max silence while a body streams (ms). Default 60 000. */
  bodyTimeoutMs?: number;
  /** Max silence on `/monitor/heads` before the stream counts as dead (ms). Default 120 000. */
  monitorIdleTimeoutMs?: number;
  /** Extra request headers (e.g. an API key for a hosted node). */
  headers?: Record<string, string>;
  /** Use this dispatcher instead of an owned keep-alive Agent (closing it stays the caller's job). */
  dispatcher?: Dispatcher;
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new RpcInvalidJsonError(path, err);
  }
}

/** HTTP transport over undici with a keep-alive connection pool. */
export class UndiciRpcTransport implements RpcTransport {
  private readonly base: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly headers: Record<string, string>;

  constructor(
    baseUrl: string,
    private readonly options: UndiciRpcTransportOptions = {},
  ) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new RpcArgumentError(`invalid node URL ${JSON.stringify(baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RpcArgumentError(`node URL must be http(s): ${JSON.stringify(baseUrl)}`);
    }
    // Keep a path prefix (nodes behind a proxy at …/rpc) and drop the trailing slash.
    this.base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ connections: options.connections ?? 16 });
    this.headers = { accept: 'application/json', ...options.headers };
  }

  async get(path: string, signal?: AbortSignal): Promise<RpcResponse> {
    const response = await this.open(path, signal, this.options.bodyTimeoutMs ?? 60_000);
    return { status: response.statusCode, body: await response.body.text() };
  }

  private open(path: string, signal: AbortSignal | undefined, bodyTimeout: number): ReturnType<typeof request> {
    return request(this.base + path, {
      method: 'GET',
      signal,
      dispatcher: this.dispatcher,
      headers: this.headers,
      headersTimeout: this.options.headersTimeoutMs ?? 30_000,
      bodyTimeout,
    });
  }

  async *monitorHeads(signal: AbortSignal): AsyncIterable<unknown> {
    const path = `/monitor/heads/${encodeURIComponent(this.options.chain ?? 'main')}`;
    const response = await this.open(path, signal, this.options.monitorIdleTimeoutMs ?? 120_000);
    if (response.statusCode !== 200) {
      throw new RpcHttpError(path, response.statusCode, await response.body.text());
    }
    const splitter = new JsonStreamSplitter();
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      let texts: string[];
      try {
        texts = splitter.push(decoder.decode(chunk as Uint8Array, { stream: true }));
      } catch (err) {
        throw new RpcInvalidJsonError(path, err);
      }
      for (const text of texts) yield parseJson(path, text);
    }
    if (splitter.hasPartialValue)
      throw new RpcInvalidJsonError(path, new SyntaxError('stream ended inside a JSON value'));
  }

  /** Closes the owned connection pool. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}
