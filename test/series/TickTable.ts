import { b58Encode, PrefixV2 } from '@taquito/utils';
import { prng } from '../support/SampleTable';
import { OracleMeasure, OracleRow } from './SeriesOracle';

/**
 * A synthetic append table (`tick`) whose series uses every aggregation on every numeric kind, a
 * mutable table (`gauge`) with a series that can only be read raw, and seeded rows that hit the
 * calendar's edges: ties, gaps, week/month/quarter/year boundaries, a leap day, rows near now.
 */
export const TICK_MEASURES: OracleMeasure[] = [
  { name: 'count', agg: 'count' },
  { name: 'qty_sum', agg: 'sum', source: 'qty', kind: 'int' },
  { name: 'qty_min', agg: 'min', source: 'qty', kind: 'int' },
  { name: 'qty_max', agg: 'max', source: 'qty', kind: 'int' },
  { name: 'qty_first', agg: 'first', source: 'qty', kind: 'int' },
  { name: 'qty_last', agg: 'last', source: 'qty', kind: 'int' },
  { name: 'qty_mean', agg: 'mean', source: 'qty', kind: 'int' },
  { name: 'amount', agg: 'sum', source: 'amount', kind: 'money' },
  { name: 'amount_min', agg: 'min', source: 'amount', kind: 'money' },
  { name: 'amount_mean', agg: 'mean', source: 'amount', kind: 'money' },
  { name: 'amount_last', agg: 'last', source: 'amount', kind: 'money' },
  { name: 'ratio_sum', agg: 'sum', source: 'ratio', kind: 'float' },
  { name: 'ratio_max', agg: 'max', source: 'ratio', kind: 'float' },
  { name: 'ratio_mean', agg: 'mean', source: 'ratio', kind: 'float' },
  { name: 'price_first', agg: 'first', source: 'price', kind: { fixed: 4 } },
  { name: 'price_max', agg: 'max', source: 'price', kind: { fixed: 4 } },
  { name: 'price_mean', agg: 'mean', source: 'price', kind: { fixed: 4 } },
  { name: 'flags', agg: 'sum', source: 'flag', kind: 'bool' },
  { name: 'flag_mean', agg: 'mean', source: 'flag', kind: 'bool' },
  { name: 'flag_last', agg: 'last', source: 'flag', kind: 'bool' },
];

export const GAUGE_MEASURES: OracleMeasure[] = [
  { name: 'level', agg: 'last', source: 'level', kind: 'int' },
  { name: 'count', agg: 'count' },
];

const yamlColumns = (ms: OracleMeasure[]): string =>
  ms.map((m) => `          - { name: ${m.name}, agg: ${m.agg}${m.source ? `, source: ${m.source}` : ''} }`).join('\n');

export const TICK_CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      tick:
        kind: append
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: time, type: datetime }
          - { name: qty, type: int64, nullable: true }
          - { name: amount, type: money }
          - { name: ratio, type: float64 }
          - { name: price, type: fixed(4) }
          - { name: flag, type: bool }
          - { name: kind, type: "enum(alpha,beta,gamma)" }
          - { name: addr, type: address }
        indexes: [[time], [height]]
      gauge:
        kind: mutable
        columns:
          - { name: row_id, type: uint64 }
          - { name: time, type: datetime }
          - { name: level, type: int64 }
    series:
      tick:
        table: tick
        columns:
${yamlColumns(TICK_MEASURES)}
      gauge:
        table: gauge
        columns:
${yamlColumns(GAUGE_MEASURES)}
`;

export interface TickRow extends OracleRow {
  height: number;
  qty: bigint | null;
  amount: bigint;
  ratio: number;
  price: string;
  flag: boolean;
  kind: string;
  addr: string;
}

const MINUTE = 60_000;

/** The cluster: three dense hours around the 2024 Q1/Q2 boundary (Sunday → Monday), with gaps. */
export const CLUSTER = { from: Date.UTC(2024, 2, 31, 22), to: Date.UTC(2024, 3, 1, 1) };
/** The background: rows spread over thirteen months. */
export const SPAN = { from: Date.UTC(2023, 11, 20), to: Date.UTC(2025, 0, 15) };

const EDGES = [
  '2023-12-31T23:59:59.999Z',
  '2024-01-01T00:00:00.000Z',
  '2024-02-29T12:00:00.000Z',
  '2024-03-31T23:59:59.999Z',
  '2024-04-01T00:00:00.000Z',
  '2024-05-05T23:59:59.999Z',
  '2024-05-06T00:00:00.000Z',
  '2024-06-30T23:59:59.999Z',
  '2024-07-01T00:00:00.000Z',
  '2024-12-31T23:59:59.999Z',
  '2025-01-01T00:00:00.000Z',
].map(Date.parse);

/**
 * Rows in insertion order (row_id = index + 1): times are shuffled against row ids, so "first" and
 * "last" must follow time, with row_id only breaking ties. Heights rise with time, three rows a height.
 */
export function tickRows(seed: number, now: number): TickRow[] {
  const rnd = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const times: number[] = [];
  for (let i = 0; i < 1500; i++) times.push(SPAN.from + Math.floor(rnd() * (SPAN.to - SPAN.from)));
  for (let m = 0; m < (CLUSTER.to - CLUSTER.from) / MINUTE; m++) {
    if (m % 7 === 3 || (m >= 60 && m < 72)) continue;
    for (let k = int(0, 4); k > 0; k--) times.push(CLUSTER.from + m * MINUTE + int(0, MINUTE - 1));
  }
  for (const edge of EDGES) times.push(edge, edge);
  for (let i = 0; i < 30; i++) times.push(times[int(0, 1499)]);
  for (let k = 1; k <= 900; k++) times.push(now - k * 37_000);
  return ticksAt(rnd, times, 1, 1);
}

/** `n` more rows between two times, heights from `firstHeight`, row ids from `firstRowId`. */
export function laterTicks(
  seed: number,
  n: number,
  from: number,
  to: number,
  firstHeight: number,
  firstRowId: number,
): TickRow[] {
  const rnd = prng(seed);
  return ticksAt(
    rnd,
    Array.from({ length: n }, () => from + Math.floor(rnd() * (to - from))),
    firstHeight,
    firstRowId,
  );
}

function ticksAt(rnd: () => number, times: number[], firstHeight: number, firstRowId: number): TickRow[] {
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const addrs = Array.from({ length: 6 }, (_, i) =>
    b58Encode(
      Uint8Array.from({ length: 20 }, (_, k) => (i * 37 + k * 11) % 256),
      PrefixV2.Ed25519PublicKeyHash,
    ),
  );
  const rows = [...times]
    .sort((a, b) => a - b)
    .map((time, i) => ({
      row_id: 0,
      height: firstHeight + Math.floor(i / 3),
      time,
      qty: rnd() < 0.1 ? null : BigInt(int(-1000, 1000)),
      amount: BigInt(int(-5_000_000, 5_000_000_000)),
      ratio: int(-400, 400) / 4,
      price: `${rnd() < 0.2 ? '-' : ''}${int(0, 99999)}.${String(int(0, 9999)).padStart(4, '0')}`,
      flag: rnd() < 0.5,
      kind: ['alpha', 'beta', 'gamma'][int(0, 2)],
      addr: addrs[int(0, addrs.length - 1)],
    }));
  for (let i = rows.length - 1; i > 0; i--) {
    const j = int(0, i);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  rows.forEach((r, i) => (r.row_id = firstRowId + i));
  return rows;
}

export function toTickWriterRow(r: TickRow): Record<string, unknown> {
  return {
    height: BigInt(r.height),
    time: new Date(r.time),
    qty: r.qty,
    amount: r.amount,
    ratio: r.ratio,
    price: r.price,
    flag: r.flag,
    kind: r.kind,
    addr: r.addr,
  };
}

export async function body(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`invalid JSON (${res.status}): ${text.slice(0, 300)}`);
  }
}
