import { b58Encode, PrefixV2 } from '@taquito/utils';
import { seededRandom } from '../../framework/util/seededRandom';

/**
 * A synthetic table with one column of every catalog type, its rows generated from a seed, and an
 * oracle that evaluates filters on those rows in plain JS — the expectation every API answer is
 * checked against.
 */
export const SAMPLE_CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      sample:
        description: one column per type
        columns:
          - { name: row_id, type: uint64 }
          - { name: i64, type: int64 }
          - { name: u64, type: uint64 }
          - { name: f64, type: float64 }
          - { name: amount, type: money }
          - { name: time, type: datetime }
          - { name: flag, type: bool }
          - { name: block, type: hash(block) }
          - { name: addr, type: address, nullable: true }
          - { name: kind, type: "enum(alpha,beta,gamma)" }
          - { name: label, type: string }
          - { name: blob, type: bytes }
          - { name: big, type: bigint }
          - { name: price, type: fixed(4) }
          - { name: doc, type: json, nullable: true }
          - { name: secret, type: string, default: false }
        indexes: [[time], [addr]]
  other:
    tables:
      hidden:
        columns:
          - { name: row_id, type: uint64 }
`;

export interface SampleRow {
  row_id: number;
  i64: bigint;
  u64: bigint;
  f64: number;
  amount: bigint;
  time: number;
  flag: boolean;
  block: string;
  addr: string | null;
  kind: string;
  label: string;
  blob: string;
  big: bigint;
  price: string;
  doc: { a: number; tag?: string } | null;
  secret: string;
}

/** Seeded, so a failing case can be replayed. */
export const prng = seededRandom;

// Separators of CSV and of Postgres COPY text (tab, backslash, line breaks) among them.
const LABELS = [
  'plain',
  'with,comma',
  'with "quote"',
  'line\nbreak',
  'crlf\r\nline',
  'ünïcødé ✓',
  'a.b*c',
  '',
  'Zeta',
  'alpha beta',
  'tab\tstop',
  'back\\slash\\N',
];

export function sampleRows(n: number, seed = 7): SampleRow[] {
  const rnd = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const bytes = (k: number): Uint8Array => Uint8Array.from({ length: k }, () => int(0, 255));
  const addrs = Array.from({ length: 12 }, () => b58Encode(bytes(20), PrefixV2.Ed25519PublicKeyHash));
  const blocks = Array.from({ length: 40 }, () => b58Encode(bytes(32), PrefixV2.BlockHash));
  const base = Date.UTC(2024, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    row_id: i + 1,
    i64: BigInt(int(-1000, 1000)),
    u64: BigInt(int(0, 1_000_000)),
    f64: int(-1_000_000, 1_000_000) / 1000,
    amount: BigInt(int(-5_000_000, 5_000_000_000)),
    time: base + i * 37 * 60_000 + int(0, 999),
    flag: rnd() < 0.5,
    block: blocks[int(0, blocks.length - 1)],
    addr: rnd() < 0.15 ? null : addrs[int(0, addrs.length - 1)],
    kind: ['alpha', 'beta', 'gamma'][int(0, 2)],
    label: `${LABELS[int(0, LABELS.length - 1)]}${i % 7 === 0 ? '' : int(0, 9)}`,
    blob: Buffer.from(bytes(int(0, 6))).toString('hex'),
    big: BigInt(int(-1e9, 1e9)) * 10n ** BigInt(int(0, 20)),
    price: `${int(0, 99999)}.${String(int(0, 9999)).padStart(4, '0')}`,
    doc: rnd() < 0.2 ? null : { a: int(0, 9), ...(rnd() < 0.5 ? { tag: 'x' } : {}) },
    secret: `s${i}`,
  }));
}

/** Writer input: the types' own storage conversions are the ones under test. */
export function toWriterRow(r: SampleRow): Record<string, unknown> {
  return { ...r, row_id: undefined, time: new Date(r.time), doc: r.doc };
}

type Cmp = (a: unknown, b: unknown) => number;
const num: Cmp = (a, b) => (a as number) - (b as number);
const big: Cmp = (a, b) => ((a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0);
const bytesCmp: Cmp = (a, b) => Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
const hexCmp: Cmp = (a, b) => Buffer.compare(Buffer.from(a as string, 'hex'), Buffer.from(b as string, 'hex'));
const fixedCmp: Cmp = (a, b) => big(BigInt((a as string).replace('.', '')), BigInt((b as string).replace('.', '')));
const boolCmp: Cmp = (a, b) => Number(a) - Number(b);
const jsonCmp: Cmp = (a, b) => (JSON.stringify(a) === JSON.stringify(b) ? 0 : 1);

/** Per column: how values compare and how the API argument is written. */
export const COLUMNS: Record<string, { cmp: Cmp; arg: (v: unknown) => string; ops: string[] }> = {
  i64: { cmp: big, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  u64: { cmp: big, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  f64: { cmp: num, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  amount: { cmp: big, arg: (v) => tez(v as bigint), ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  time: {
    cmp: num,
    arg: (v) => new Date(v as number).toISOString(),
    ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'],
  },
  flag: { cmp: boolCmp, arg: (v) => (v ? 'true' : '0'), ops: ['eq', 'ne', 'in', 'nin'] },
  block: { cmp: bytesCmp, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  addr: { cmp: bytesCmp, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  kind: { cmp: bytesCmp, arg: String, ops: ['eq', 'ne', 'in', 'nin'] },
  label: { cmp: bytesCmp, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  blob: { cmp: hexCmp, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  big: { cmp: big, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  price: { cmp: fixedCmp, arg: String, ops: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'] },
  doc: { cmp: jsonCmp, arg: (v) => JSON.stringify(v), ops: ['eq', 'ne'] },
};

/** Which rows a filter keeps, by SQL semantics: NULL matches only `ne`/`nin`. */
export function oracle(rows: SampleRow[], column: string, op: string, args: unknown[]): number[] {
  const { cmp } = COLUMNS[column];
  return rows
    .filter((r) => {
      const v = (r as unknown as Record<string, unknown>)[column];
      if (v === null) return op === 'ne' || op === 'nin';
      const c = (x: unknown): number => cmp(v, x);
      switch (op) {
        case 'eq':
          return c(args[0]) === 0;
        case 'ne':
          return c(args[0]) !== 0;
        case 'gt':
          return c(args[0]) > 0;
        case 'gte':
          return c(args[0]) >= 0;
        case 'lt':
          return c(args[0]) < 0;
        case 'lte':
          return c(args[0]) <= 0;
        case 'in':
          return args.some((a) => c(a) === 0);
        case 'nin':
          return !args.some((a) => c(a) === 0);
        case 'rg':
          return c(args[0]) >= 0 && c(args[1]) <= 0;
        default:
          throw new Error(op);
      }
    })
    .map((r) => r.row_id);
}

/** tez text computed independently of the implementation: integer division on the absolute value. */
export function tez(mutez: bigint): string {
  const abs = mutez < 0n ? -mutez : mutez;
  return `${mutez < 0n ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** Minimal RFC 4180 reader for checking the CSV output. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
