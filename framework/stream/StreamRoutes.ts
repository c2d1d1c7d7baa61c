import { CLIENT_OPERATION_TYPES } from '../chain';
import type { RouteRegistry } from '../http/RouteRegistry';
import { ApiError } from '../errors/ApiError';
import type { QueryArgs } from '../query/TableRequest';
import { SseClient } from './SseClient';
import { STREAM_PARAMS, StreamFilter } from './StreamFilter';
import type { StreamHub } from './StreamHub';

/** `GET /stream`: Server-Sent Events of what the indexer commits, filtered per client. */
export function mountStream(routes: RouteRegistry, hub: StreamHub, eventTypes: ReadonlySet<string>): void {
  routes.get('/stream', 'Stream', async (ctx) => {
    const query = { ...(ctx.query as QueryArgs) };
    const resume = resumePoint(ctx.get('Last-Event-ID') || (query.last_event_id as string | undefined));
    const filter = StreamFilter.parse(query, eventTypes, CLIENT_OPERATION_TYPES);
    ctx.status = 200;
    ctx.respond = false;
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    ctx.res.write('retry: 3000\n: connected\n\n');
    const client = new SseClient(ctx.res, filter, 0, hub.limits, (c) => hub.remove(c));
    await hub.add(client, resume);
  }, {
    summary: 'live events as the indexer commits them (Server-Sent Events)',
    description: 'Events: `block`, `operation` (live blocks only), `rollback` (the blocks and operations a reorg took back), plugin events; comments as heartbeats; `dropped` before a too-slow client is disconnected; `reset` when a resume point is no longer kept. Each event has an `id`: reconnect with `Last-Event-ID` to resume.',
    mediaType: 'text/event-stream',
    query: STREAM_PARAMS.map((p) => ({ name: p.name, description: p.description, schema: p.name === 'last_event_id' ? { type: 'integer', minimum: 0 } : { type: 'string' } })),
  });
}

function resumePoint(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw ApiError.invalid(`invalid Last-Event-ID '${raw}': expected an event id`);
  return Number(raw);
}
