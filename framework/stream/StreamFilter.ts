import { ApiError } from '../errors/ApiError';
import { parseAddress } from '../http/ResourceIds';
import type { QueryArgs } from '../query/TableRequest';
import type { StreamEvent } from './StreamLog';

/** The query parameters of /stream, documented in the OpenAPI document from this list. */
export const STREAM_PARAMS = [
  {
    name: 'types',
    description:
      'event types, comma-separated: block, operation, rollback, or an event type an enabled plugin declares (default: all)',
  },
  {
    name: 'op_type',
    description:
      'operation types, comma-separated (transaction, origination, delegation…, unknown for kinds newer than this build): the type names of `/tables/op`, which operation events carry as `type` (the node kind is in `kind`)',
  },
  { name: 'address', description: 'operations and plugin events involving any of these addresses, in any role' },
  { name: 'contract', description: 'operations whose target (receiver) is one of these contracts' },
  { name: 'entrypoint', description: 'operations calling one of these entrypoints' },
  { name: 'last_event_id', description: 'resume after this event id (same as the Last-Event-ID header)' },
] as const;

/** How large one client's filter may be (config `stream_max_filter_entries`, `stream_max_filter_bytes`). */
export interface StreamFilterLimits {
  /** Values in all the lists together; more is a 400. */
  maxFilterEntries: number;
  /** Bytes of the query string, as sent (URL-encoded); more is a 414, before it is parsed. */
  maxFilterBytes: number;
}

/**
 * Which events one client wants. Blocks and rollbacks are the stream's clock and always pass unless
 * `types` leaves them out; the operation filters narrow operations (and plugin events that name
 * addresses or a contract).
 */
export class StreamFilter {
  private constructor(
    private readonly types?: ReadonlySet<string>,
    private readonly opTypes?: ReadonlySet<string>,
    private readonly addresses?: ReadonlySet<string>,
    private readonly contracts?: ReadonlySet<string>,
    private readonly entrypoints?: ReadonlySet<string>,
  ) {}

  /**
   * `eventTypes` are what the instance can stream (StreamRecorder.eventTypes), `opTypes` the operation
   * types it knows: a name outside them would only ever give an empty stream, so it is a 400.
   */
  static parse(
    query: QueryArgs,
    eventTypes: ReadonlySet<string>,
    opTypes: ReadonlySet<string>,
    maxEntries: number,
  ): StreamFilter {
    const known = new Set<string>(STREAM_PARAMS.map((p) => p.name));
    for (const key of Object.keys(query)) if (!known.has(key)) throw ApiError.invalid(`unknown parameter '${key}'`);
    let entries = 0;
    const list = (key: string): string[] | undefined => {
      const v = query[key];
      if (v === undefined) return undefined;
      const items = (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length === 0) throw ApiError.invalid(`empty '${key}' filter`);
      entries += items.length;
      if (entries > maxEntries) {
        throw ApiError.invalid(`too many stream filter values: at most ${maxEntries} in all lists together`);
      }
      return items;
    };
    const set = (items?: string[]): Set<string> | undefined => (items ? new Set(items) : undefined);
    const addresses = (key: string): Set<string> | undefined => set(list(key)?.map((a) => parseAddress(a)));
    const oneOf = (key: string, known: ReadonlySet<string>): Set<string> | undefined => {
      const items = list(key);
      const bad = items?.find((v) => !known.has(v));
      if (bad !== undefined)
        throw ApiError.invalid(`invalid '${key}' value '${bad}': expected one of ${[...known].join(', ')}`);
      return set(items);
    };
    return new StreamFilter(
      oneOf('types', eventTypes),
      oneOf('op_type', opTypes),
      addresses('address'),
      addresses('contract'),
      set(list('entrypoint')),
    );
  }

  matches(e: StreamEvent): boolean {
    if (this.types && !this.types.has(e.type)) return false;
    if (e.type === 'block' || e.type === 'rollback') return true;
    const d = e.data;
    if (e.type === 'operation') {
      if (this.opTypes && !this.opTypes.has(d.type as string)) return false;
      if (this.entrypoints && !this.entrypoints.has(d.entrypoint as string)) return false;
      if (this.contracts && !this.contracts.has(d.receiver as string)) return false;
    } else if (this.opTypes || this.entrypoints) {
      return false;
    }
    if (this.contracts && e.type !== 'operation' && !this.contracts.has(d.contract as string)) return false;
    if (this.addresses && !(Array.isArray(d.addresses) && d.addresses.some((a) => this.addresses!.has(a as string))))
      return false;
    return true;
  }
}
