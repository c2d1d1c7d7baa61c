import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import type { TableDef } from '../catalog/CatalogModel';
import { columnsOf as table } from './checkRows';
import type { CheckScope, ReconciliationCheck, Violation } from './Reconciliation';

/**
 * The invariants of a ledger kept in two tables: holdings (one row per holder and group, e.g. a DEX
 * position per pool and owner) and groups (a pool, with the total its holdings must add up to), plus the
 * append table of the events that moved them. Declared by column names, checked against the catalog
 * when the checks are built, so a renamed column fails at start-up rather than checking nothing.
 */
export interface LedgerSpec {
  readonly family: string;
  /** Prefix of the check names, e.g. `dex`. */
  readonly name: string;
  readonly holdings: {
    readonly table: string;
    /** The holding's unique key column, and the group column (the pool). */
    readonly key: string;
    readonly group: string;
    /** What the group's total adds up (the open holdings' balances). */
    readonly balance: string;
    /** balance = Σ plus − Σ minus (what the holding's counters say it must be); null: not checked. */
    readonly ledger: { readonly plus: readonly string[]; readonly minus: readonly string[] } | null;
    /** The flag is set exactly when every `when` column is 0, and then height and time are set. */
    readonly closed: {
      readonly flag: string;
      readonly height: string;
      readonly time: string;
      readonly when: readonly string[];
    };
    readonly height: string;
    readonly nonNegative: readonly string[];
  };
  readonly groups: {
    readonly table: string;
    readonly key: string;
    /** The group's total that the open holdings' balances add up to (null: not checked). */
    readonly total: string | null;
    /** A column set on the groups whose `total` is no sum of holdings (not checked there). */
    readonly totalUnless?: string;
    readonly height: string;
    readonly nonNegative: readonly string[];
  };
  readonly events: {
    readonly table: string;
    readonly group: string;
    readonly height: string;
    readonly op: string;
    readonly nonNegative: readonly string[];
  };
}

type Rows = Record<string, unknown>[];

export function ledgerChecks(db: Knex, catalog: Catalog, spec: LedgerSpec): ReconciliationCheck[] {
  const h = table(catalog, spec.holdings.table, [
    spec.holdings.key,
    spec.holdings.group,
    spec.holdings.balance,
    spec.holdings.height,
    ...(spec.holdings.ledger ? [...spec.holdings.ledger.plus, ...spec.holdings.ledger.minus] : []),
    spec.holdings.closed.flag,
    spec.holdings.closed.height,
    spec.holdings.closed.time,
    ...spec.holdings.closed.when,
    ...spec.holdings.nonNegative,
  ]);
  const g = table(catalog, spec.groups.table, [
    spec.groups.key,
    spec.groups.height,
    ...(spec.groups.total ? [spec.groups.total] : []),
    ...(spec.groups.totalUnless ? [spec.groups.totalUnless] : []),
    ...spec.groups.nonNegative,
  ]);
  const e = table(catalog, spec.events.table, [
    spec.events.group,
    spec.events.height,
    spec.events.op,
    ...spec.events.nonNegative,
  ]);
  // Rows a reorg orphaned (append tables that keep them) are not part of the ledger.
  const from = (t: TableDef): Knex.QueryBuilder => {
    const q = db.withSchema(t.schema).from(t.storage);
    return t.orphanColumn
      ? q.where((w) => w.whereNull(`${t.storage}.${t.orphanColumn}`).orWhere(`${t.storage}.${t.orphanColumn}`, false))
      : q;
  };
  const scoped = (q: Knex.QueryBuilder, column: string, scope: CheckScope): Knex.QueryBuilder =>
    scope.pool === undefined ? q : q.where(column, scope.pool);
  const { holdings: hs, groups: gs, events: es } = spec;
  const check = (
    name: string,
    description: string,
    run: (scope: CheckScope) => Promise<Violation[]>,
  ): ReconciliationCheck => ({ family: spec.family, name: `${spec.name}.${name}`, description, run });
  const negatives =
    (t: TableDef, key: string, group: string, height: string, op: string | null, columns: readonly string[]) =>
    async (scope: CheckScope, name: string): Promise<Violation[]> => {
      const out: Violation[] = [];
      for (const c of columns) {
        const rows: Rows = await scoped(
          from(t)
            .select({ key, height, ...(op ? { op } : {}), value: c })
            .where(c, '<', 0),
          group,
          scope,
        )
          .orderBy(height)
          .limit(LIMIT);
        out.push(...rows.map((r) => violation(`${spec.name}.${name}`, r, `${t.code}.${c} = ${String(r.value)} < 0`)));
      }
      return out;
    };
  const holdingLedger = ({ plus, minus }: { plus: readonly string[]; minus: readonly string[] }): ReconciliationCheck =>
    check(
      'holding_ledger',
      `${hs.balance} = ${[plus.join(' + '), ...minus].join(' − ')} on every holding`,
      async (scope) => {
        const counters = [...plus.map(() => '+ coalesce(??, 0)'), ...minus.map(() => '- coalesce(??, 0)')].join(' ');
        const expected = db.raw(`(0 ${counters})`, [...plus, ...minus]);
        const rows: Rows = await scoped(
          from(h).select({ key: hs.key, height: hs.height, balance: hs.balance, expected }),
          hs.group,
          scope,
        )
          .whereRaw(`?? <> (0 ${counters})`, [hs.balance, ...plus, ...minus])
          .orderBy(hs.height)
          .limit(LIMIT);
        return rows.map((r) =>
          violation(
            `${spec.name}.holding_ledger`,
            r,
            `${hs.balance} = ${String(r.balance)}, counters say ${String(r.expected)}`,
          ),
        );
      },
    );
  return [
    check(
      'non_negative',
      `no negative ${hs.nonNegative.join(', ')} (${h.code}), ${gs.nonNegative.join(', ')} (${g.code}), ${es.nonNegative.join(', ')} (${e.code})`,
      async (scope) => [
        ...(await negatives(h, hs.key, hs.group, hs.height, null, hs.nonNegative)(scope, 'non_negative')),
        ...(await negatives(g, gs.key, gs.key, gs.height, null, gs.nonNegative)(scope, 'non_negative')),
        ...(await negatives(e, es.group, es.group, es.height, es.op, es.nonNegative)(scope, 'non_negative')),
      ],
    ),
    check(
      'closed',
      `a holding is closed exactly when ${hs.closed.when.join(' and ')} ${hs.closed.when.length > 1 ? 'are' : 'is'} 0, and then has ${hs.closed.height} and ${hs.closed.time}`,
      async (scope) => {
        const { flag, height, time, when } = hs.closed;
        const empty = when.map(() => '?? = 0').join(' and ');
        const rows: Rows = await scoped(
          from(h).select({
            key: hs.key,
            height: hs.height,
            flag,
            closedAt: height,
            closedTime: time,
            ...Object.fromEntries(when.map((c) => [c, c])),
          }),
          hs.group,
          scope,
        )
          .where((w) =>
            w
              .whereRaw(`?? <> (${empty})`, [flag, ...when])
              .orWhere((c) => c.where(flag, true).andWhere((n) => n.whereNull(height).orWhereNull(time))),
          )
          .orderBy(hs.height)
          .limit(LIMIT);
        return rows.map((r) =>
          violation(
            `${spec.name}.closed`,
            r,
            [
              `${flag} = ${String(r.flag)}`,
              ...when.map((c) => `${c} = ${String(r[c])}`),
              `${height} = ${String(r.closedAt)}`,
              `${time} = ${r.closedTime === null ? 'null' : 'set'}`,
            ].join(', '),
          ),
        );
      },
    ),
    ...(hs.ledger === null ? [] : [holdingLedger(hs.ledger)]),
    ...(gs.total === null
      ? []
      : [
          check(
            'group_total',
            `each ${g.code}.${gs.total} = the sum of its open holdings' ${hs.balance}` +
              (gs.totalUnless ? ` (where ${gs.totalUnless} is null)` : ''),
            async (scope) => {
              const sums = from(h)
                .select({ grp: hs.group })
                .sum({ held: hs.balance })
                .where(hs.closed.flag, false)
                .groupBy(hs.group)
                .as('s');
              const rows: Rows = await scoped(
                from(g).select({
                  key: `${g.storage}.${gs.key}`,
                  height: `${g.storage}.${gs.height}`,
                  total: `${g.storage}.${gs.total}`,
                  held: db.raw('coalesce(s.held, 0)'),
                }),
                `${g.storage}.${gs.key}`,
                scope,
              )
                .leftJoin(sums, 's.grp', `${g.storage}.${gs.key}`)
                .whereRaw('?? <> coalesce(s.held, 0)', [`${g.storage}.${gs.total}`])
                .modify((q) => (gs.totalUnless ? q.whereNull(`${g.storage}.${gs.totalUnless}`) : q))
                .orderBy(`${g.storage}.${gs.key}`)
                .limit(LIMIT);
              return rows.map((r) =>
                violation(
                  `${spec.name}.group_total`,
                  r,
                  `${gs.total} = ${String(r.total)}, open holdings add up to ${String(r.held)}`,
                ),
              );
            },
          ),
        ]),
  ];
}

/** At most this many violations a check reports (a broken invariant usually breaks on many rows). */
const LIMIT = 1000;

function violation(check: string, r: Record<string, unknown>, detail: string): Violation {
  const height = r.height === null || r.height === undefined ? null : Number(r.height);
  return {
    check,
    subject: String(r.key),
    height,
    op: r.op === undefined ? undefined : (r.op as string | null),
    detail,
  };
}
