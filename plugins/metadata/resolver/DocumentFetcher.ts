import { Dispatcher, getGlobalDispatcher, interceptors, request } from 'undici';
import { errorMessage } from '../../../framework';
import { metadataLocation, parseDocument } from '../chain/MetadataBytes';
import type { ResolverSettings } from '../MetadataSettings';

export interface FetchResult {
  document?: Record<string, unknown>;
  error?: string;
}

/**
 * One attempt to fetch an off-chain metadata document (ipfs:// through the configured gateway,
 * https:// directly) with a timeout and a size cap. Never throws: every failure is a result with an
 * error, so the document row can keep it.
 */
export class DocumentFetcher {
  /** The network, following up to 3 redirects (undici 7 takes no `maxRedirections` option any more). */
  private readonly dispatcher: Dispatcher;

  constructor(
    private readonly settings: Pick<ResolverSettings, 'ipfsGateway' | 'timeoutMs' | 'maxBytes'>,
    network: Dispatcher = getGlobalDispatcher(),
  ) {
    this.dispatcher = network.compose(interceptors.redirect({ maxRedirections: 3 }));
  }

  url(uri: string): string | undefined {
    const location = metadataLocation(uri);
    if (location.kind !== 'remote') return undefined;
    const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/.exec(location.uri);
    return ipfs ? `${this.settings.ipfsGateway}/ipfs/${ipfs[1]}` : location.uri;
  }

  async fetch(uri: string): Promise<FetchResult> {
    const url = this.url(uri);
    if (url === undefined) return { error: `not a fetchable URI: '${uri.slice(0, 200)}'` };
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const res = await request(url, {
        dispatcher: this.dispatcher,
        signal,
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
        headers: { accept: 'application/json' },
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return { error: `HTTP ${res.statusCode} from ${url}` };
      }
      if (Number(res.headers['content-length'] ?? 0) > this.settings.maxBytes) {
        await res.body.dump();
        return { error: `document larger than ${this.settings.maxBytes} bytes` };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const read of res.body) {
        // The body is a byte stream (no encoding set): its chunks are Buffers.
        const chunk: Buffer = read;
        size += chunk.length;
        if (size > this.settings.maxBytes) {
          res.body.destroy();
          return { error: `document larger than ${this.settings.maxBytes} bytes` };
        }
        chunks.push(chunk);
      }
      return parseDocument(Buffer.concat(chunks).toString('utf8'));
    } catch (e) {
      if (signal.aborted) return { error: `timed out after ${this.settings.timeoutMs} ms fetching ${url}` };
      return { error: `cannot fetch ${url}: ${errorMessage(e)}` };
    }
  }
}
