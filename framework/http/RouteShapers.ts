/** A row as its columns' types render it, as text (RFC3339 times, exact numbers): what record shapers read. */
export type TextRow = Record<string, string | null>;

/** The boolean switches a route declares (`switches: [prim, meta]`), as the request set them (absent: false). */
export type RouteSwitches = Readonly<Record<string, boolean>>;
/**
 * Turns a page of rows (as text) into the answer's records, in the same order (e.g. a pool's tokens and USD values
 * added).
 */
export type RecordShaper = (rows: readonly TextRow[], switches: RouteSwitches) => Promise<unknown[]>;
/** Turns a path parameter into the value its column stores, or throws ApiError (400 malformed, 404 unknown). */
export type KeyResolver = (raw: string) => Promise<string>;

/**
 * The code a declared route may name (`record:`, a parameter's `resolve:`), registered by plugins
 * while they mount their routes. Why a registry: tables.yaml stays data, the record's shape (SDK
 * structs) stays typed code in the plugin, and a name that nothing registers stops the start-up.
 */
export class RouteShapers {
  private readonly records = new Map<string, RecordShaper>();
  private readonly keys = new Map<string, KeyResolver>();

  record(name: string, shaper: RecordShaper): void {
    add(this.records, 'record shaper', name, shaper);
  }

  key(name: string, resolver: KeyResolver): void {
    add(this.keys, 'key resolver', name, resolver);
  }

  requireRecord(name: string, route: string): RecordShaper {
    return this.records.get(name) ?? missing('record shaper', name, route);
  }

  requireKey(name: string, route: string): KeyResolver {
    return this.keys.get(name) ?? missing('key resolver', name, route);
  }
}

function add<T>(map: Map<string, T>, what: string, name: string, value: T): void {
  if (map.has(name)) throw new Error(`${what} '${name}' is registered twice`);
  map.set(name, value);
}

function missing(what: string, name: string, route: string): never {
  throw new Error(
    `route ${route}: no ${what} '${name}' is registered (a plugin registers it with RouteRegistry.shapers)`,
  );
}
