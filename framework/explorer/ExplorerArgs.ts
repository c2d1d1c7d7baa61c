import { ApiError } from '../http/ApiError';
import type { QueryArgs } from '../query/TableRequest';

const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['', '0', 'false', 'off', 'no']);

/**
 * A request's query split into the explorer's own parameters (switches like `prim`, block bounds
 * like `since`) and the rest, which are list parameters and column filters of the listed table.
 * `columns` is dropped: explorer objects are always sent in full.
 */
export class ExplorerArgs {
  readonly rest: QueryArgs = {};
  private readonly own = new Map<string, string>();

  constructor(query: QueryArgs, ownNames: readonly string[]) {
    const names = new Set(ownNames);
    for (const [key, value] of Object.entries(query)) {
      if (key === 'columns') continue;
      if (!names.has(key)) {
        this.rest[key] = value;
        continue;
      }
      if (Array.isArray(value)) throw ApiError.badQuery(`parameter '${key}' given more than once`);
      if (value !== undefined) this.own.set(key, value);
    }
  }

  get(name: string): string | undefined {
    return this.own.get(name);
  }

  flag(name: string): boolean {
    const raw = this.own.get(name);
    if (raw === undefined) return false;
    const v = raw.toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw ApiError.badQuery(`invalid ${name} '${raw}': expected 1/0 or true/false`);
  }
}

/**
 * What `meta=1` adds to an object: account metadata keyed by address. No metadata source is indexed
 * yet, so the map stays empty until a metadata plugin fills it.
 */
export function metadataField(meta: boolean): { metadata?: Record<string, never> } {
  return meta ? { metadata: {} } : {};
}

