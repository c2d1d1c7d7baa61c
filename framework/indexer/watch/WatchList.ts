import { Knex } from 'knex';
import { ContractTypes, ContractTypesJson } from '../../michelson/ContractTypes';
import { META_SCHEMA } from '../../storage/SchemaMigrator';

/** A contract a plugin follows under a role (`defi-dex:pool`), since the block at `height`. */
export interface Watch {
  readonly address: string;
  readonly role: string;
  /** The block that made the watch; 0 for contracts listed in the configuration. */
  readonly height: number;
  readonly types?: ContractTypes;
}

export const WATCH_TABLE = `${META_SCHEMA}.watches`;

/**
 * The contracts plugins follow, by address. Watches made while indexing are pending until their batch
 * commits (dropped when it fails), are stored in `tzidx.watches` with the batch, and go away with a
 * rollback of their block like any indexed row. Configured contracts are always watched.
 */
export class WatchList {
  private committed = new Map<string, Map<string, Watch>>();
  private pending = new Map<string, Map<string, Watch>>();

  /** `configured`: role → addresses, from the instance configuration. */
  constructor(private readonly configured: Readonly<Record<string, readonly string[]>> = {}) {
    this.committed = this.configuredWatches();
  }

  /** Reads the stored watches (at start, and after a rollback removed some). */
  async load(knex: Knex): Promise<void> {
    const rows: Array<{
      address: string;
      role: string;
      height: string | number;
      types: ContractTypesJson | string | null;
    }> = await knex(WATCH_TABLE).select('address', 'role', 'height', 'types');
    const all = this.configuredWatches();
    for (const r of rows) {
      const types =
        r.types === null
          ? undefined
          : ContractTypes.fromJSON(typeof r.types === 'string' ? JSON.parse(r.types) : r.types);
      put(all, { address: r.address, role: r.role, height: Number(r.height), types });
    }
    this.committed = all;
    this.pending.clear();
  }

  /** Roles under which the address is watched, committed or pending. */
  roles(address: string): string[] {
    const roles = [...(this.committed.get(address)?.keys() ?? []), ...(this.pending.get(address)?.keys() ?? [])];
    return roles;
  }

  /** Known types of a watched contract. */
  types(address: string): ContractTypes | undefined {
    for (const map of [this.committed, this.pending]) {
      for (const w of map.get(address)?.values() ?? []) if (w.types) return w.types;
    }
    return undefined;
  }

  /** Adds a watch to the running batch; false when the contract already has that role. */
  add(watch: Watch): boolean {
    if (this.committed.get(watch.address)?.has(watch.role) || this.pending.get(watch.address)?.has(watch.role))
      return false;
    put(this.pending, watch);
    return true;
  }

  /** Writes the batch's watches in its transaction. */
  async flush(trx: Knex.Transaction): Promise<void> {
    const rows = [...this.pending.values()].flatMap((m) => [...m.values()]);
    for (let i = 0; i < rows.length; i += 1000) {
      await trx(WATCH_TABLE).insert(
        rows
          .slice(i, i + 1000)
          .map((w) => ({
            address: w.address,
            role: w.role,
            height: w.height,
            types: w.types ? JSON.stringify(w.types) : null,
          })),
      );
    }
  }

  /** The batch committed: its watches are part of the state now. */
  commit(): void {
    for (const m of this.pending.values()) for (const w of m.values()) put(this.committed, w);
    this.pending.clear();
  }

  /** The batch failed: forget its watches. */
  reset(): void {
    this.pending.clear();
  }

  private configuredWatches(): Map<string, Map<string, Watch>> {
    const out = new Map<string, Map<string, Watch>>();
    for (const [role, addresses] of Object.entries(this.configured))
      for (const address of addresses) put(out, { address, role, height: 0 });
    return out;
  }
}

function put(map: Map<string, Map<string, Watch>>, w: Watch): void {
  let roles = map.get(w.address);
  if (!roles) map.set(w.address, (roles = new Map()));
  if (!roles.has(w.role)) roles.set(w.role, w);
}
