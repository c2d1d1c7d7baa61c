import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { ContractCode, michelineFromHex } from '../michelson/ContractCode';
import { ContractTypes } from '../michelson/ContractTypes';
import type { CheckScope, ReconciliationCheck, Violation } from './Reconciliation';
import { columnsOf, hexOf, live } from './checkRows';

/*
 * Why: a record's reserves must be the chain's, not what our code believed. The chain's storage after each
 * call is kept by core-chain (`storage`, one row per change, named by the `storage_hash` of the `op` rows);
 * each family declares how its values sit in that storage (a reading, in its adapter folder), and this
 * check compares: every event's values with the storage after the last call of its contract in its group,
 * and every group's (pool's) current values with its contract's latest storage. A group whose family has no
 * reading, or whose storage no known types read, is counted as not checked, never as passed.
 */

/** How a family's storage holds a group's values. */
export interface StorageReading {
  /** Shipped types, tried strictly in order when the contract's own script was not indexed. */
  readonly types: readonly ContractTypes[];
  /** The values (in the spec's `values` order, null where the group has none) for group `sub`; undefined: none. */
  read(storage: unknown, sub: number): readonly (bigint | null)[] | undefined;
}

export interface StorageSpec {
  readonly family: string;
  /** The check's name, e.g. `dex.reserves`. */
  readonly name: string;
  readonly groups: {
    readonly table: string;
    readonly key: string;
    readonly contract: string;
    /** The group's index inside its contract (a pair id). */
    readonly sub: string;
    /** The family column: what `reading` is asked with. */
    readonly kind: string;
    readonly height: string;
    readonly values: readonly string[];
  };
  readonly events: {
    readonly table: string;
    readonly group: string;
    readonly height: string;
    readonly op: string;
    readonly values: readonly string[];
  };
  reading(kind: string): StorageReading | undefined;
}

type Row = Record<string, unknown>;

export function storageCheck(db: Knex, catalog: Catalog, spec: StorageSpec): ReconciliationCheck {
  const { groups: gs, events: es } = spec;
  const g = columnsOf(catalog, gs.table, [gs.key, gs.contract, gs.sub, gs.kind, gs.height, ...gs.values]);
  const e = columnsOf(catalog, es.table, [es.group, es.height, es.op, ...es.values]);
  const op = columnsOf(catalog, 'op', ['hash', 'receiver_id', 'storage_hash', 'is_success']);
  const account = columnsOf(catalog, 'account', ['address']);
  const store = columnsOf(catalog, 'storage', ['contract', 'hash', 'storage', 'height']);
  const contract = columnsOf(catalog, 'contract', ['address', 'script']);
  const t = (d: { schema: string; storage: string }) => `${d.schema}.${d.storage}`;
  const values = (prefix: string, cols: readonly string[]) => cols.map((c, i) => `${prefix}.${c} as v${i}`).join(', ');
  return {
    family: spec.family,
    name: spec.name,
    description:
      `${g.code}.${gs.values.join('/')} after each operation group (${e.code}) and now (${g.code}) ` +
      `= the contract's storage after it (core-chain storage, read as the family declares)`,
    async run(scope: CheckScope): Promise<Violation[]> {
      const pool = scope.pool === undefined ? '' : `and x.${gs.key} = ?`;
      const bind = scope.pool === undefined ? [] : [scope.pool];
      // The storage after the group's last applied call of the contract, named by the call's storage_hash.
      const after = (hash: string, addr: string) =>
        `(select s.storage from ${t(op)} o join ${t(account)} a on a.row_id = o.receiver_id
           join ${t(store)} s on s.contract = ${addr} and s.hash = o.storage_hash
          where o.hash = ${hash} and a.address = ${addr} and o.is_success and o.storage_hash is not null
          order by o.row_id desc, s.row_id desc limit 1)`;
      const events: Row[] = (
        await db.raw(
          `select y.*, ${after('y.op', 'y.contract')} as storage from (
             select distinct on (ev.${es.group}, ev.${es.op}) ev.${es.group} as subject, ev.${es.height} as height,
                    ev.${es.op} as op, x.${gs.contract} as contract, x.${gs.sub} as sub, x.${gs.kind} as kind,
                    ${values('ev', es.values)}
               from ${t(e)} ev join ${t(g)} x on x.${gs.key} = ev.${es.group}
              where ${live(e, 'ev')} ${pool}
              order by ev.${es.group}, ev.${es.op}, ev.row_id desc) y`,
          bind,
        )
      ).rows;
      const latest = `(select s.storage from ${t(store)} s where s.contract = x.${gs.contract}
                        order by s.height desc, s.row_id desc limit 1)`;
      const groups: Row[] = (
        await db.raw(
          `select x.${gs.key} as subject, x.${gs.height} as height, x.${gs.contract} as contract, x.${gs.sub} as sub,
                  x.${gs.kind} as kind, ${values('x', gs.values)}, ${latest} as storage,
                  (select c.script from ${t(contract)} c where c.address = x.${gs.contract}) as script
             from ${t(g)} x where true ${pool}`,
          bind,
        )
      ).rows;
      const scripts = new Map(groups.map((r) => [String(r.contract), r.script]));
      const out: Violation[] = [];
      const unread = new Map<string, string>();
      const compare = (r: Row, where: string) => {
        const reading = spec.reading(String(r.kind));
        const read = reading && r.storage ? decode(reading, scripts.get(String(r.contract)), r.storage) : undefined;
        const want = read === undefined ? undefined : reading!.read(read, Number(r.sub));
        if (!want)
          return void unread.set(
            String(r.subject),
            r.storage ? `no reading of its ${String(r.kind)} storage` : 'no storage kept',
          );
        const got = es.values.map((_, i) => (r[`v${i}`] === null ? null : BigInt(String(r[`v${i}`]))));
        const off = es.values.filter((_, i) => got[i] !== want[i]);
        if (off.length === 0) return;
        const show = (vs: readonly (bigint | null)[]) => off.map((c) => `${c} ${String(vs[es.values.indexOf(c)])}`);
        out.push({
          check: spec.name,
          subject: String(r.subject),
          height: r.height === null ? null : Number(r.height),
          op: (r.op as string | undefined) ?? undefined,
          detail: `${where}: ${show(got).join(', ')}; storage has ${show(want).join(', ')}`,
        });
      };
      // Events whose group made no call of the contract (an LP token's transfer) have no storage to compare.
      for (const r of events) if (r.storage) compare(r, `after the group (${e.code})`);
      for (const r of groups) compare(r, `now (${g.code})`);
      for (const [subject, why] of unread)
        out.push({ check: spec.name, subject, detail: `not checked: ${why}`, notChecked: true });
      return out;
    },
  };
}

/** The storage read with the contract's own script when indexed, else the first shipped types it fits exactly. */
function decode(reading: StorageReading, script: unknown, storage: unknown): unknown {
  const raw = michelineFromHex(hexOf(storage));
  if (raw === undefined) return undefined;
  const own = ContractCode.fromScriptHex(hexOf(script));
  const types = own ? [ContractTypes.fromCode(own.code)!] : reading.types;
  for (const ty of types) {
    try {
      return ty.storage(raw, { strict: true });
    } catch {
      continue;
    }
  }
  return undefined;
}
