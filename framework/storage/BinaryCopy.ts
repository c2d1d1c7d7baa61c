import type { BinaryFields } from '../catalog/types/ColumnType';

/** The binary COPY header: signature, flags (none) and header-extension length (none). */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** Rows are handed on in chunks of about this many bytes. */
const CHUNK = 65_536;
/** Most COPYs are of a few rows (a block's chain row, rows written ahead between blocks): the first buffer is small. */
const FIRST_BUFFER = 4_096;
const TWO_32 = 4_294_967_296;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_MIN = -SAFE_MAX;
const NUMERIC_NEG = 0x4000;
const NUMERIC_NAN = 0xc000;
/** Postgres 14 and later; older servers refuse them, as they refuse the text 'Infinity' for numeric. */
const NUMERIC_SPECIAL = new Map([
  ['NaN', NUMERIC_NAN],
  ['Infinity', 0xd000],
  ['+Infinity', 0xd000],
  ['-Infinity', 0xf000],
]);
const EMPTY = Buffer.alloc(0);
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Postgres's binary COPY format, written straight into buffers. Why: the text format builds a
 * string per field and per line (most fields are integers) that is then encoded again into bytes,
 * about a seventh of everything the indexer allocates; here integers, times and booleans go in as
 * their bytes, and the server need not parse them either. Each column type writes its own values
 * (`ColumnType.writeBinary`); this class knows only the format's field encodings.
 */
export class BinaryCopyWriter implements BinaryFields {
  private buf = Buffer.allocUnsafe(FIRST_BUFFER);
  private pos = 0;

  constructor() {
    this.raw(HEADER);
  }

  /** Starts a row of `fields` fields. */
  tuple(fields: number): void {
    this.ensure(2);
    this.buf.writeInt16BE(fields, this.pos);
    this.pos += 2;
  }

  null(): void {
    this.ensure(4);
    this.buf.writeInt32BE(-1, this.pos);
    this.pos += 4;
  }

  int16(value: number): void {
    this.ensure(6);
    this.buf.writeInt32BE(2, this.pos);
    this.buf.writeInt16BE(value, this.pos + 4);
    this.pos += 6;
  }

  int64(value: bigint | number | string): void {
    this.ensure(12);
    const b = this.buf;
    b.writeInt32BE(8, this.pos);
    // A bigint within 2^53 goes by the number path: writeBigInt64BE makes three bigints a value.
    if (typeof value === 'bigint' && value <= SAFE_MAX && value >= SAFE_MIN) value = Number(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) {
      const high = Math.floor(value / TWO_32);
      b.writeInt32BE(high, this.pos + 4);
      b.writeUInt32BE(value - high * TWO_32, this.pos + 8);
    } else {
      if (typeof value === 'number' && !Number.isInteger(value)) throw new RangeError(`${value} is not an integer`);
      b.writeBigInt64BE(BigInt(value), this.pos + 4);
    }
    this.pos += 12;
  }

  float64(value: number): void {
    this.ensure(12);
    this.buf.writeInt32BE(8, this.pos);
    this.buf.writeDoubleBE(value, this.pos + 4);
    this.pos += 12;
  }

  bool(value: boolean): void {
    this.ensure(5);
    this.buf.writeInt32BE(1, this.pos);
    this.buf[this.pos + 4] = value ? 1 : 0;
    this.pos += 5;
  }

  text(value: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit: room first, then one pass over the string.
    this.ensure(4 + 3 * value.length);
    const n = this.buf.write(value, this.pos + 4, 'utf8');
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
  }

  bytes(value: Uint8Array): void {
    this.ensure(4 + value.length);
    this.buf.writeInt32BE(value.length, this.pos);
    this.buf.set(value, this.pos + 4);
    this.pos += 4 + value.length;
  }

  jsonb(json: string): void {
    // jsonb's binary form is a version byte (1) and the JSON text.
    this.ensure(5 + 3 * json.length);
    const n = this.buf.write(json, this.pos + 5, 'utf8');
    this.buf.writeInt32BE(n + 1, this.pos);
    this.buf[this.pos + 4] = 1;
    this.pos += 5 + n;
  }

  /**
   * A decimal number's text (`-12.5`, `1e-7`, `NaN`, `-Infinity`) as numeric: base-10,000 digits, weight, sign and
   * scale.
   */
  numeric(decimal: string): void {
    const { digits, weight, sign, scale } = numericParts(decimal);
    this.ensure(12 + 2 * digits.length);
    const b = this.buf;
    let p = this.pos;
    b.writeInt32BE(8 + 2 * digits.length, p);
    b.writeInt16BE(digits.length, p + 4);
    b.writeInt16BE(weight, p + 6);
    b.writeUInt16BE(sign, p + 8);
    b.writeInt16BE(scale, p + 10);
    p += 12;
    for (const d of digits) {
      b.writeInt16BE(d, p);
      p += 2;
    }
    this.pos = p;
  }

  /** The bytes written since the last call (the header first, the trailer with `end`). */
  take(end = false): Buffer {
    if (end) {
      this.ensure(2);
      this.buf.writeInt16BE(-1, this.pos);
      this.pos += 2;
    }
    const out = this.buf.subarray(0, this.pos);
    // The chunk handed on is the consumer's from now on: the next rows go into a buffer of their own.
    this.buf = end ? EMPTY : Buffer.allocUnsafe(2 * CHUNK);
    this.pos = 0;
    return out;
  }

  get full(): boolean {
    return this.pos >= CHUNK;
  }

  private raw(bytes: Buffer): void {
    this.ensure(bytes.length);
    bytes.copy(this.buf, this.pos);
    this.pos += bytes.length;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }
}

/** Rows as binary COPY input in chunks of about 64 KiB, each row by `write`. */
export function* binaryCopyChunks<T>(
  rows: readonly T[],
  write: (row: T, out: BinaryCopyWriter) => void,
): Generator<Buffer> {
  const out = new BinaryCopyWriter();
  for (const row of rows) {
    write(row, out);
    if (out.full) yield out.take();
  }
  yield out.take(true);
}

function numericParts(decimal: string): { digits: number[]; weight: number; sign: number; scale: number } {
  const special = NUMERIC_SPECIAL.get(decimal);
  if (special !== undefined) return { digits: [], weight: 0, sign: special, scale: 0 };
  const m = DECIMAL.exec(decimal.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new RangeError(`'${decimal}' is not a decimal number`);
  // Shift the decimal point by the exponent, in the digit text (no float ever holds the value).
  const all = m[2] + (m[3] ?? '');
  const point = m[2].length + Number(m[4] ?? 0);
  const whole = point <= 0 ? '' : all.slice(0, point).padEnd(point, '0');
  const fraction = point <= 0 ? '0'.repeat(-point) + all : all.slice(point);
  const wholeText = whole.replace(/^0+/, '');
  const groups = Math.ceil(wholeText.length / 4);
  const text = wholeText.padStart(4 * groups, '0') + fraction.padEnd(4 * Math.ceil(fraction.length / 4), '0');
  const digits: number[] = [];
  for (let i = 0; i < text.length; i += 4) digits.push(Number(text.slice(i, i + 4)));
  let weight = groups - 1;
  let first = 0;
  while (first < digits.length && digits[first] === 0) {
    first++;
    weight--;
  }
  let last = digits.length;
  while (last > first && digits[last - 1] === 0) last--;
  const kept = digits.slice(first, last);
  const negative = m[1] === '-' && kept.length > 0;
  return {
    digits: kept,
    weight: kept.length === 0 ? 0 : weight,
    sign: negative ? NUMERIC_NEG : 0,
    scale: fraction.length,
  };
}
