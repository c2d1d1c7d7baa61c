import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { chainMoves, type ChainMove } from './ChainMoves';
import { columnsOf, live } from './checkRows';
import type { CheckScope, ReconciliationCheck, Violation } from './Reconciliation';

/*
 * Why: a trade's (or a liquidity event's) amounts must be what its call moved. Per group (a pool) and operation
 * group, the records' legs add up, per token: what they say went in must be what the group's operations moved
 * into the group's contract (from anyone else), and what they say went out to an account must be what the
 * contract moved to that account (`ChainMoves`, from core-chain's op rows). Moves to others (a fee's recipient,
 * a burn) are no one's output. A contract holding several groups (tokens of many pools in one contract), and an
 * operation group with a record the legs cannot express (`skip`), are counted as not checked.
 */

/** One amount of a record: token `token` (index into the group's `tokens`), into the contract or out to `receiver`. */
export interface MoveLeg {
  readonly token: number;
  readonly amount: string;
  readonly dir: 'in' | 'out';
}

export interface MovesSpec {
  readonly family: string;
  readonly name: string;
  readonly groups: {
    readonly table: string;
    readonly key: string;
    readonly contract: string;
    /** The token columns: `tez` or `KT1…_tokenId`, null where the group has fewer. */
    readonly tokens: readonly string[];
  };
  /** The records and their legs; `where` selects the rows (column = value) the legs apply to. */
  readonly records: ReadonlyArray<{
    readonly table: string;
    readonly group: string;
    readonly op: string;
    readonly height: string;
    readonly receiver: string;
    readonly where: Readonly<Record<string, string>>;
    readonly legs: readonly MoveLeg[];
  }>;
  /** Records whose operation groups are not checked: rows whose `column` is one of `values`. */
  readonly skip: {
    readonly table: string;
    readonly group: string;
    readonly op: string;
    readonly column: string;
    readonly values: readonly string[];
  };
}

interface Claim {
  subject: string;
  op: string;
  height: number;
  into: Map<string, bigint>;
  /** `token account` → amount. */
  out: Map<string, bigint>;
}

export function movesCheck(db: Knex, catalog: Catalog, spec: MovesSpec): ReconciliationCheck {
  const g = columnsOf(catalog, spec.groups.table, [spec.groups.key, spec.groups.contract, ...spec.groups.tokens]);
  const records = spec.records.map((r) => ({
    ...r,
    def: columnsOf(catalog, r.table, [r.group, r.op, r.height, r.receiver, ...Object.keys(r.where)]),
  }));
  const skip = columnsOf(catalog, spec.skip.table, [spec.skip.group, spec.skip.op, spec.skip.column]);
  const t = (d: { schema: string; storage: string }) => `${d.schema}.${d.storage}`;
  return {
    family: spec.family,
    name: spec.name,
    description:
      `each operation group's ${records.map((r) => r.table).join('/')} amounts = ` +
      'what it moved into the pool and out to the receiver (op rows)',
    async run(scope: CheckScope): Promise<Violation[]> {
      const gs = spec.groups;
      const pools: Record<string, unknown>[] = (
        await db.raw(
          `select x.${gs.key} as key, x.${gs.contract} as contract,
                  ${gs.tokens.map((c, i) => `x.${c} as t${i}`).join(', ')},
                  (select count(*) from ${t(g)} y where y.${gs.contract} = x.${gs.contract}) as n
             from ${t(g)} x`,
        )
      ).rows;
      const pool = new Map(pools.map((p) => [String(p.key), p]));
      const skipped: Record<string, unknown>[] = (
        await db.raw(
          `select distinct k.${spec.skip.group} as key, k.${spec.skip.op} as op from ${t(skip)} k
            where ${live(skip, 'k')} and k.${spec.skip.column} in (${spec.skip.values.map(() => '?').join(',')})`,
          spec.skip.values.map((v) => skip.column(spec.skip.column)!.type.parse(v)) as Knex.Value[],
        )
      ).rows;
      const skips = new Set(skipped.map((r) => `${String(r.key)} ${String(r.op)}`));
      const claims = new Map<string, Claim>();
      const unchecked = new Map<string, string>();
      for (const r of records) {
        const conditions = Object.entries(r.where);
        const rows: Record<string, unknown>[] = (
          await db.raw(
            `select x.${r.group} as key, x.${r.op} as op, x.${r.height} as height, x.${r.receiver} as receiver,
                    ${r.legs.map((l, i) => `x.${l.amount} as a${i}`).join(', ')}
               from ${t(r.def)} x where ${live(r.def, 'x')}
                ${conditions.map(([c]) => `and x.${c} = ?`).join(' ')}
                ${scope.pool === undefined ? '' : `and x.${r.group} = ?`}`,
            [
              ...conditions.map(([c, v]) => r.def.column(c)!.type.parse(v) as Knex.Value),
              ...(scope.pool === undefined ? [] : [scope.pool]),
            ],
          )
        ).rows;
        for (const row of rows) {
          const key = `${String(row.key)} ${String(row.op)}`;
          const p = pool.get(String(row.key));
          if (!p) continue;
          if (Number(p.n) > 1 || skips.has(key)) {
            unchecked.set(String(row.key), Number(p.n) > 1 ? 'its contract holds several pools' : 'an update');
            continue;
          }
          const c = claims.get(key) ?? {
            subject: String(row.key),
            op: String(row.op),
            height: Number(row.height),
            into: new Map(),
            out: new Map(),
          };
          claims.set(key, c);
          r.legs.forEach((l, i) => {
            const token = p[`t${l.token}`];
            if (token === null || row[`a${i}`] === null) return;
            const k = l.dir === 'in' ? String(token) : `${String(token)} ${String(row.receiver)}`;
            const m = l.dir === 'in' ? c.into : c.out;
            m.set(k, (m.get(k) ?? 0n) + BigInt(String(row[`a${i}`])));
          });
        }
      }
      const moves = await chainMoves(db, catalog, [...new Set([...claims.values()].map((c) => c.op))]);
      const out: Violation[] = [];
      for (const c of claims.values()) {
        const p = pool.get(c.subject)!;
        const contract = String(p.contract);
        const found = moves.get(c.op) ?? [];
        const tokens = gs.tokens.map((_, i) => p[`t${i}`]).filter((x): x is string => typeof x === 'string');
        const moved = (m: (x: ChainMove) => boolean) => found.filter(m).reduce((s, x) => s + x.amount, 0n);
        const off: string[] = [];
        for (const token of tokens) {
          const into = moved((x) => x.token === token && x.to === contract && x.from !== contract);
          if (into !== (c.into.get(token) ?? 0n))
            off.push(`${token} in ${String(c.into.get(token) ?? 0n)}, moved ${into}`);
        }
        for (const [k, amount] of c.out) {
          const [token, to] = k.split(' ');
          const paid = moved((x) => x.token === token && x.from === contract && x.to === to);
          if (paid !== amount) off.push(`${token} out to ${to} ${amount}, moved ${paid}`);
        }
        if (off.length > 0)
          out.push({ check: spec.name, subject: c.subject, height: c.height, op: c.op, detail: off.join('; ') });
      }
      for (const [subject, why] of unchecked)
        out.push({ check: spec.name, subject, detail: `not checked: ${why}`, notChecked: true });
      return out;
    },
  };
}
