import { CLIENT_OPERATION_TYPES } from '../chain';
import type { RouteRegistry } from '../http/RouteRegistry';
import { ApiError, ErrorCode } from '../errors/ApiError';
import type { QueryArgs } from '../query/TableRequest';
import { SseClient } from './SseClient';
import { STREAM_PARAMS, StreamFilter } from './StreamFilter';
import type { StreamHub } from './StreamHub';

/** A client refused for the client cap retries later than an overloaded request: stream clients stay long. */
const FULL_RETRY_AFTER_SECONDS = 5;

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * `GET /stream`: Server-Sent Events of what the indexer commits, filtered per client. `HEAD /stream`
 * checks the same (filters, caps) and answers the stream's headers without a body. The stream
 * bypasses the API's admission line (it never ends), so it has caps of its own: clients at once,
 * and a filter's size, checked before the query is parsed.
 */
export function mountStream(routes: RouteRegistry, hub: StreamHub, eventTypes: ReadonlySet<string>): void {
  routes.get(
    '/stream',
    'Stream',
    async (ctx) => {
      const { maxFilterBytes, maxFilterEntries, maxClients } = hub.limits;
      const bytes = Buffer.byteLength(ctx.querystring);
      if (bytes > maxFilterBytes) {
        const detail = `stream filters too long: ${bytes} bytes, at most ${maxFilterBytes}`;
        throw new ApiError(414, ErrorCode.BAD_URL_QUERY, detail);
      }
      const query = { ...(ctx.query as QueryArgs) };
      const resume = resumePoint(ctx.get('Last-Event-ID') || (query.last_event_id as string | undefined));
      const filter = StreamFilter.parse(query, eventTypes, CLIENT_OPERATION_TYPES, maxFilterEntries);
      if (hub.clientCount >= maxClients) {
        ctx.set('Retry-After', String(FULL_RETRY_AFTER_SECONDS));
        const detail = `stream full: ${maxClients} clients connected, retry after ${FULL_RETRY_AFTER_SECONDS} s`;
        throw new ApiError(503, ErrorCode.SERVER, detail);
      }
      ctx.respond = false;
      ctx.res.writeHead(200, SSE_HEADERS);
      if (ctx.method === 'HEAD') {
        ctx.res.end();
        return;
      }
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      ctx.res.write('retry: 3000\n: connected\n\n');
      const client = new SseClient(ctx.res, filter, 0, hub.limits, (c) => hub.remove(c));
      await hub.add(client, resume);
    },
    {
      summary: 'live events as the indexer commits them (Server-Sent Events)',
      description:
        '`HEAD` answers the headers only. ' +
        'Events: `block`, `operation` (live blocks only), `rollback` (the blocks and operations a reorg took back), plugin events; comments as heartbeats; `dropped` before a too-slow client is disconnected; `reset` when a resume point is no longer kept. Each event has an `id`: reconnect with `Last-Event-ID` to resume.',
      mediaType: 'text/event-stream',
      query: STREAM_PARAMS.map((p) => ({
        name: p.name,
        description: p.description,
        schema: p.name === 'last_event_id' ? { type: 'integer', minimum: 0 } : { type: 'string' },
      })),
    },
  );
}

function resumePoint(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw ApiError.invalid(`invalid Last-Event-ID '${raw}': expected an event id`);
  return Number(raw);
}
