import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { ContractCode, michelineFromHex } from '../michelson/ContractCode';
import { ContractTypes } from '../michelson/ContractTypes';
import { plainValue } from '../michelson/PlainValue';
import { scriptExpr } from '../michelson/ScriptExpr';
import type { CheckScope, ReconciliationCheck, Violation } from './Reconciliation';
import { equalsSql } from '../query/ValueLists';
import { columnsOf, hexOf, live } from './checkRows';

/*
 * Why: a record's reserves must be the chain's, not what our code believed. The chain's storage after each
 * call is kept by core-chain (`storage`, one row per change, named by the `storage_hash` of the `op` rows);
 * each family declares how its values sit in that storage (a reading, in its adapter folder), and this
 * check compares: every event's values with the storage after the last call of its contract in its group,
 * and every group's (pool's) current values with its contract's latest storage. A group whose family has no
 * reading, or whose storage no known types read, is counted as not checked, never as passed. A group's events
 * before its last one are compared too when the group called the contract once (all of them are after that call;
 * with several calls they hold the states in between, and only the last is known to be the storage's).
 * A family keeping each group's values in a big map entry (many pools in one contract) names the big map
 * (its id's path in the storage) and the entry's key; the entry's value as of the call is the bigmaps plugin's
 * `bigmap_updates` (every update with its operation), read through the catalog: without that plugin such a
 * group is not checked.
 */

/** How a family's storage holds a group's values. */
export interface StorageReading {
  /** Shipped storage types, tried strictly in order when the contract's own script was not indexed. */
  readonly types: readonly Pick<ContractTypes, 'storageType'>[];
  /** Where the group's entry is when in a big map: its id at `path` of the storage, keyed by `sub` (type `key`). */
  readonly bigMap?: { readonly path: readonly string[]; readonly key: unknown };
  /**
   * The values (in the spec's `values` order; null where the group has none, undefined where the storage does not
   * hold it: not compared) for group `sub`, in the decoded storage or, with `bigMap`, in the entry's raw
   * Micheline value; undefined: none.
   */
  read(storage: unknown, sub: number): readonly (bigint | null | undefined)[] | undefined;
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
    /**
     * The events' kind column, for the events before the group's last one: those of a `asOfThen` kind hold the
     * values of their own moment (a transfer recorded before the call) and are not compared; those of an `opening`
     * kind may hold an empty group instead (a pool the call created), all values zero.
     */
    readonly kind?: {
      readonly column: string;
      readonly asOfThen: readonly string[];
      readonly opening: readonly string[];
    };
  };
  reading(kind: string): StorageReading | undefined;
}

type Row = Record<string, unknown>;

export function storageCheck(db: Knex, catalog: Catalog, spec: StorageSpec): ReconciliationCheck {
  const { groups: gs, events: es } = spec;
  const g = columnsOf(catalog, gs.table, [gs.key, gs.contract, gs.sub, gs.kind, gs.height, ...gs.values]);
  const e = columnsOf(catalog, es.table, [
    es.group,
    es.height,
    es.op,
    ...es.values,
    ...(es.kind ? [es.kind.column] : []),
  ]);
  const kindCode = (labels: readonly string[] = []) =>
    labels.map((l) => String(e.column(es.kind!.column)!.type.parse(l)));
  const [asOfThen, opening] = [new Set(kindCode(es.kind?.asOfThen)), new Set(kindCode(es.kind?.opening))];
  const op = columnsOf(catalog, 'op', ['hash', 'height', 'op_n', 'receiver_id', 'storage_hash', 'is_success']);
  const account = columnsOf(catalog, 'account', ['address']);
  const store = columnsOf(catalog, 'storage', ['contract', 'hash', 'storage', 'height']);
  const contract = columnsOf(catalog, 'contract', ['address', 'script']);
  const entries = bigMapEntries(db, catalog);
  const t = (d: { schema: string; storage: string }) => `${d.schema}.${d.storage}`;
  // An op row of the event's group: the events' hash column as the op table stores hashes (raw bytes).
  const hash = op.column('hash')!.type;
  const sameOp = equalsSql(hash, 'o.hash', hash.convertFrom('y.op', 'text') ?? 'y.op', false).sql;
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
          where ${hash} and a.address = ${addr} and o.is_success and o.storage_hash is not null
          order by o.row_id desc, s.row_id desc limit 1)`;
      // Every event, with its rank from the group's last (1) and the group's applied calls of the contract.
      const calls = `(select count(*) from ${t(op)} o join ${t(account)} a on a.row_id = o.receiver_id
          where ${sameOp} and a.address = y.contract and o.is_success and o.storage_hash is not null)`;
      const rows: Row[] = (
        await db.raw(
          `select y.*, ${after(sameOp, 'y.contract')} as storage, ${calls} as calls,
                  (select max(o.height * 65536 + o.op_n) from ${t(op)} o where ${sameOp}) as last_op from (
             select ev.${es.group} as subject, ev.${es.height} as height, ev.${es.op} as op,
                    x.${gs.contract} as contract, x.${gs.sub} as sub, x.${gs.kind} as kind,
                    ${es.kind ? `ev.${es.kind.column}` : 'null'} as event_kind,
                    row_number() over (partition by ev.${es.group}, ev.${es.op} order by ev.row_id desc) as nth,
                    ${values('ev', es.values)}
               from ${t(e)} ev join ${t(g)} x on x.${gs.key} = ev.${es.group}
              where ${live(e, 'ev')} ${pool}) y`,
          bind,
        )
      ).rows;
      const last = (r: Row) => Number(r.nth) === 1;
      const events = rows.filter((r) => last(r) || (Number(r.calls) === 1 && !asOfThen.has(String(r.event_kind))));
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
      const locate = (row: Row, where: string): Located => {
        const reading = spec.reading(String(row.kind));
        const storage =
          reading && row.storage ? decode(reading, scripts.get(String(row.contract)), row.storage) : undefined;
        const base = { row, where, reading, storage };
        if (!row.storage) return { ...base, why: 'no storage kept' };
        if (!reading?.bigMap || storage === undefined) return base;
        if (!entries.kept) return { ...base, why: 'its values are in a big map and the bigmaps plugin is not enabled' };
        const id = reading.bigMap.path.reduce<unknown>((v, f) => (v as Record<string, unknown> | null)?.[f], storage);
        if (typeof id !== 'number') return base;
        const key = scriptExpr({ int: String(row.sub) }, reading.bigMap.key);
        return { ...base, entry: entries.name(id, key, row.last_op === undefined ? null : String(row.last_op)) };
      };
      // What each row is compared with: its storage decoded, or the big map entry it names (fetched at once).
      // Events whose group made no call of the contract (an LP token's transfer) have no storage to compare.
      const located = [
        ...events.filter((r) => r.storage).map((r) => locate(r, `after the group (${e.code})`)),
        ...groups.map((r) => locate(r, `now (${g.code})`)),
      ];
      const found = await entries.at(located.flatMap((l) => (l.entry ? [l.entry] : [])));
      for (const l of located) {
        const { row: r, reading } = l;
        const value = l.why ? undefined : l.entry ? found.get(l.entry) : l.storage;
        const want = value === undefined ? undefined : reading!.read(value, Number(r.sub));
        if (!want) {
          const missing = l.entry && value === undefined ? 'its big map entry was not indexed' : undefined;
          unread.set(String(r.subject), l.why ?? missing ?? `no reading of its ${String(r.kind)} storage`);
          continue;
        }
        const got = es.values.map((_, i) => (r[`v${i}`] === null ? null : BigInt(String(r[`v${i}`]))));
        const off = es.values.filter((_, i) => want[i] !== undefined && got[i] !== want[i]);
        const empty = r.nth !== undefined && !last(r) && opening.has(String(r.event_kind)) && got.every((v) => !v);
        if (off.length === 0 || empty) continue;
        const show = (vs: readonly (bigint | null | undefined)[]) =>
          off.map((c) => `${c} ${String(vs[es.values.indexOf(c)])}`);
        out.push({
          check: spec.name,
          subject: String(r.subject),
          height: r.height === null ? null : Number(r.height),
          op: (r.op as string | undefined) ?? undefined,
          detail: `${l.where}: ${show(got).join(', ')}; ${l.entry ? 'its big map entry' : 'storage'} has ${show(want).join(', ')}`,
        });
      }
      for (const [subject, why] of unread)
        out.push({ check: spec.name, subject, detail: `not checked: ${why}`, notChecked: true });
      return out;
    },
  };
}

/** A row to compare, with the storage read for it, or the big map entry its values are in. */
interface Located {
  readonly row: Row;
  readonly where: string;
  readonly reading: StorageReading | undefined;
  readonly storage: unknown;
  readonly entry?: string;
  /** Why it cannot be read, when known before reading. */
  readonly why?: string;
}

/**
 * Big map entries as of an operation, from the bigmaps plugin's `bigmap_updates` (absent when the plugin is not
 * enabled: `kept` false). An entry is named `id key bound`, bound: the op id (height<<16 | op_n, as
 * bigmap_updates.op_id) of the group's last operation, or empty for the latest value; read in one query per big map.
 */
function bigMapEntries(db: Knex, catalog: Catalog) {
  const u = catalog.table('bigmap_updates')
    ? columnsOf(catalog, 'bigmap_updates', ['row_id', 'bigmap_id', 'hash', 'op_id', 'action', 'value'])
    : undefined;
  return {
    kept: u !== undefined,
    name: (id: number, key: string, bound: string | null) => `${id} ${key} ${bound ?? ''}`,
    /** The raw Micheline value of each named entry that had one then (removed or never set: absent). */
    async at(named: readonly string[]): Promise<Map<string, unknown>> {
      const out = new Map<string, unknown>();
      const byMap = new Map<string, Set<string>>();
      for (const n of named) {
        const [id, key] = n.split(' ');
        byMap.set(id, (byMap.get(id) ?? new Set()).add(key));
      }
      const updates = new Map<string, Row[]>();
      for (const [id, keys] of byMap) {
        const rows: Row[] = (
          await db.raw(
            `select hash, op_id, action = ${u!.column('action')!.type.literal('update')} as updated, value
               from ${u!.schema}.${u!.storage}
              where bigmap_id = ? and hash in (${[...keys].map(() => '?').join(',')}) order by op_id, row_id`,
            [id, ...keys],
          )
        ).rows;
        for (const r of rows)
          updates.set(`${id} ${String(r.hash)}`, [...(updates.get(`${id} ${String(r.hash)}`) ?? []), r]);
      }
      for (const n of new Set(named)) {
        const [id, key, bound] = n.split(' ');
        const last = (updates.get(`${id} ${key}`) ?? [])
          .filter((r) => !bound || BigInt(String(r.op_id)) <= BigInt(bound))
          .at(-1);
        const value = last?.updated === true ? michelineFromHex(hexOf(last.value)) : undefined;
        if (value !== undefined) out.set(n, value);
      }
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
      return plainValue(ty.storageType, raw, { strict: true });
    } catch {
      continue;
    }
  }
  return undefined;
}
