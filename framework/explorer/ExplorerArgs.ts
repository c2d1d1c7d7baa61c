import { EXPLORER_SWITCHES } from '../catalog/CatalogModel';
import { ApiError } from '../errors/ApiError';
import type { QueryArgs } from '../query/TableRequest';

const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['', '0', 'false', 'off', 'no']);
/**
 * Switches of the original's explorer that a route may not use: accepted (and checked as booleans)
 * everywhere, so clients that always send them (the SDK asks for a block's operations with
 * `rights=1&meta=1`) are not refused. A route that implements one names it in its own switches.
 */
const HARMLESS: ReadonlySet<string> = new Set(EXPLORER_SWITCHES);

/**
 * A request's query split into the explorer's own parameters (switches like `prim`, block bounds
 * like `since`) and the rest, which are list parameters and column filters of the listed table.
 * `columns` is dropped: explorer objects are always sent in full.
 */
export class ExplorerArgs {
  /** Without a prototype: a `__proto__` argument is kept as a key (and refused as unknown), not swallowed. */
  readonly rest: QueryArgs = Object.create(null) as QueryArgs;
  private readonly own = new Map<string, string>();

  constructor(query: QueryArgs, ownNames: readonly string[]) {
    const names = new Set(ownNames);
    for (const [key, value] of Object.entries(query)) {
      if (key === 'columns') continue;
      if (HARMLESS.has(key) && !names.has(key)) {
        for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) parseFlag(key, v);
        continue;
      }
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
    return raw === undefined ? false : parseFlag(name, raw);
  }
}

function parseFlag(name: string, raw: string): boolean {
  const v = raw.toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw ApiError.badQuery(`invalid ${name} '${raw}': expected 1/0 or true/false`);
}
