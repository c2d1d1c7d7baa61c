import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { chainMoves, type ChainMove, type GroupMoves } from './ChainMoves';
import { columnsOf, live } from './checkRows';
import type { CheckScope, ReconciliationCheck, Violation } from './Reconciliation';

/*
 * Why: a trade's (or a liquidity event's) amounts must be what its call moved. Per group (a pool) and operation
 * group, the records' legs add up, per token: what they say went in must be what the group's operations moved
 * into the group's contract (from anyone else), and what they say went out to an account must be what the
 * contract moved to that account (`ChainMoves`, from core-chain's op rows), or to the record's router when a
 * router took the output for its user. Moves to others (a fee's recipient, a burn) are no one's output.
 * A contract holding several groups (tokens of many pools in one contract: a route's hops move nothing between
 * pools) is held to the group's moves as a whole: per token of its pools, what its records say went in less what
 * went out to their receivers = what moved into the contract from others less what it (or a contract it called,
 * e.g. the tez bucket of a QuipuSwap v2 pair) moved to those receivers. An operation group with a record the legs
 * cannot express (`skip`) is counted as not checked.
 */

/**
 * One amount of a record: a token (an index into the group's `tokens`, or the record's column holding that index:
 * the two tokens a trade of a pool of three or four names), into the contract or out to `receiver`.
 */
export interface MoveLeg {
  readonly token: number | { readonly column: string };
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
    /** The router column: the contract that called the pool for the receiver (null when none). */
    readonly router: string;
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
  /** The group, or for a contract holding several, the group of that contract the records name. */
  readonly groups: Set<string>;
  readonly contract: string;
  readonly several: boolean;
  readonly op: string;
  readonly height: number;
  readonly tokens: Set<string>;
  readonly into: Map<string, bigint>;
  /** `token account` → amount. */
  readonly out: Map<string, bigint>;
  /** A router that took an output for its user: router → receiver. */
  readonly routers: Map<string, string>;
}

type Row = Record<string, unknown>;

export function movesCheck(db: Knex, catalog: Catalog, spec: MovesSpec): ReconciliationCheck {
  const g = columnsOf(catalog, spec.groups.table, [spec.groups.key, spec.groups.contract, ...spec.groups.tokens]);
  const records = spec.records.map((r) => ({
    ...r,
    def: columnsOf(catalog, r.table, [
      r.group,
      r.op,
      r.height,
      r.receiver,
      r.router,
      ...Object.keys(r.where),
      ...r.legs.flatMap((l) => (typeof l.token === 'number' ? [] : [l.token.column])),
    ]),
  }));
  const skip = columnsOf(catalog, spec.skip.table, [spec.skip.group, spec.skip.op, spec.skip.column]);
  const t = (d: { schema: string; storage: string }) => `${d.schema}.${d.storage}`;
  return {
    family: spec.family,
    name: spec.name,
    description:
      `each operation group's ${records.map((r) => r.table).join('/')} amounts = ` +
      'what it moved into the pool and out to the receiver (op rows; per token and contract where it holds several)',
    async run(scope: CheckScope): Promise<Violation[]> {
      const gs = spec.groups;
      const pools: Row[] = (
        await db.raw(
          `select x.${gs.key} as key, x.${gs.contract} as contract,
                  ${gs.tokens.map((c, i) => `x.${c} as t${i}`).join(', ')},
                  (select count(*) from ${t(g)} y where y.${gs.contract} = x.${gs.contract}) as n
             from ${t(g)} x`,
        )
      ).rows;
      const pool = new Map(pools.map((p) => [String(p.key), p]));
      // What a record's claims are gathered under: its group, or its contract when that holds several.
      const unit = (p: Row) => (Number(p.n) > 1 ? String(p.contract) : String(p.key));
      const skipped: Row[] = (
        await db.raw(
          `select distinct k.${spec.skip.group} as key, k.${spec.skip.op} as op from ${t(skip)} k
            where ${live(skip, 'k')} and k.${spec.skip.column} in (${spec.skip.values.map(() => '?').join(',')})`,
          spec.skip.values.map((v) => skip.column(spec.skip.column)!.type.parse(v)) as Knex.Value[],
        )
      ).rows;
      const skips = new Set(
        skipped.flatMap((r) => (pool.has(String(r.key)) ? [`${unit(pool.get(String(r.key))!)} ${String(r.op)}`] : [])),
      );
      const claims = new Map<string, Claim>();
      const unchecked = new Map<string, string>();
      for (const r of records) {
        const conditions = Object.entries(r.where);
        const tokenColumns = r.legs.map((l, i) =>
          typeof l.token === 'number' ? '' : `, x.${l.token.column} as k${i}`,
        );
        // Every pool's: a contract holding several is checked as a whole, even for one pool (`scope`).
        const rows: Row[] = (
          await db.raw(
            `select x.${r.group} as key, x.${r.op} as op, x.${r.height} as height, x.${r.receiver} as receiver,
                    x.${r.router} as router, ${r.legs.map((l, i) => `x.${l.amount} as a${i}`).join(', ')}
                    ${tokenColumns.join('')}
               from ${t(r.def)} x where ${live(r.def, 'x')}
                ${conditions.map(([c]) => `and x.${c} = ?`).join(' ')}`,
            conditions.map(([c, v]) => r.def.column(c)!.type.parse(v) as Knex.Value),
          )
        ).rows;
        for (const row of rows) {
          const p = pool.get(String(row.key));
          if (!p) continue;
          const key = `${unit(p)} ${String(row.op)}`;
          if (skips.has(key)) {
            unchecked.set(String(row.key), 'an update');
            continue;
          }
          const c: Claim = claims.get(key) ?? {
            groups: new Set(),
            contract: String(p.contract),
            several: Number(p.n) > 1,
            op: String(row.op),
            height: Number(row.height),
            tokens: new Set(),
            into: new Map(),
            out: new Map(),
            routers: new Map(),
          };
          claims.set(key, c);
          c.groups.add(String(row.key));
          for (const [i] of gs.tokens.entries()) if (typeof p[`t${i}`] === 'string') c.tokens.add(String(p[`t${i}`]));
          if (row.router !== null && row.receiver !== null && row.router !== row.receiver)
            c.routers.set(String(row.router), String(row.receiver));
          r.legs.forEach((l, i) => {
            const token = p[`t${typeof l.token === 'number' ? l.token : Number(row[`k${i}`])}`];
            if (token === null || row[`a${i}`] === null) return;
            const k = l.dir === 'in' ? String(token) : `${String(token)} ${String(row.receiver)}`;
            const m = l.dir === 'in' ? c.into : c.out;
            m.set(k, (m.get(k) ?? 0n) + BigInt(String(row[`a${i}`])));
          });
        }
      }
      const checked = [...claims]
        .filter(([, c]) => scope.pool === undefined || c.groups.has(scope.pool))
        .map(([, c]) => c);
      const moves = await chainMoves(db, catalog, [...new Set(checked.map((c) => c.op))]);
      const out: Violation[] = [];
      for (const c of checked) {
        const off = (c.several ? severalOff : oneOff)(c, moves.get(c.op) ?? { moves: [], calls: [] });
        if (off.length > 0)
          out.push({
            check: spec.name,
            subject: [...c.groups].join(' '),
            height: c.height,
            op: c.op,
            detail: off.join('; '),
          });
      }
      for (const [subject, why] of unchecked)
        if (scope.pool === undefined || scope.pool === subject)
          out.push({ check: spec.name, subject, detail: `not checked: ${why}`, notChecked: true });
      return out;
    },
  };
}

const sum = (found: readonly ChainMove[], m: (x: ChainMove) => boolean) =>
  found.filter(m).reduce((s, x) => s + x.amount, 0n);

/** A group's own contract: each token in, and each token out to each receiver (or its router). */
function oneOff(c: Claim, found: GroupMoves): string[] {
  const off: string[] = [];
  for (const token of c.tokens) {
    const into = sum(found.moves, (x) => x.token === token && x.to === c.contract && x.from !== c.contract);
    if (into !== (c.into.get(token) ?? 0n)) off.push(`${token} in ${String(c.into.get(token) ?? 0n)}, moved ${into}`);
  }
  for (const [k, amount] of c.out) {
    const [token, to] = k.split(' ');
    const paid = sum(
      found.moves,
      (x) => x.token === token && x.from === c.contract && (c.routers.get(x.to) ?? x.to) === to,
    );
    if (paid !== amount) off.push(`${token} out to ${to} ${amount}, moved ${paid}`);
  }
  return off;
}

/** A contract holding several groups: per token, in less out to the receivers, against what moved. */
function severalOff(c: Claim, found: GroupMoves): string[] {
  const receivers = new Set([...[...c.out.keys()].map((k) => k.split(' ')[1]), ...c.routers.keys()]);
  // The contract's side: itself and the contracts it called (a pair's tez bucket), receivers aside.
  const side = new Set([
    c.contract,
    ...found.calls.filter((x) => x.from === c.contract && !receivers.has(x.to)).map((x) => x.to),
  ]);
  const off: string[] = [];
  for (const token of c.tokens) {
    const paid = [...c.out].filter(([k]) => k.split(' ')[0] === token).reduce((s, [, v]) => s + v, 0n);
    const claimed = (c.into.get(token) ?? 0n) - paid;
    const moved =
      sum(found.moves, (x) => x.token === token && side.has(x.to) && !side.has(x.from)) -
      sum(found.moves, (x) => x.token === token && side.has(x.from) && receivers.has(x.to));
    if (moved !== claimed) off.push(`${token} in less out ${claimed}, moved ${moved}`);
  }
  return off;
}
