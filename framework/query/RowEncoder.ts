import { ColumnDef } from '../catalog/CatalogModel';
import { Encoding } from '../catalog/types/ColumnType';
import { RawRow } from './TableQueryEngine';

/** Streams rows as one document: `begin`, then `rows` per chunk, then `end`. */
export interface RowEncoder {
  readonly contentType: string;
  readonly encoding: Encoding;
  begin(): string;
  rows(chunk: readonly RawRow[]): string;
  end(): string;
}

/**
 * A JSON array of rows, each either an array of values in the requested column order (the tables
 * API: `[[v1,v2],…]`, compact encodings) or an object keyed by column name (DeFi and other object
 * lists: `[{"a":v1},…]`, RFC3339 times and true/false).
 */
export class JsonRowsEncoder implements RowEncoder {
  readonly contentType = 'application/json; charset=utf-8';
  readonly encoding: Encoding;
  private first = true;
  private readonly open: string;
  private readonly close: string;
  /** What precedes each value: nothing in arrays, `"name":` in objects. */
  private readonly keys: string[];
  private readonly nulls: string[];

  constructor(
    private readonly columns: readonly ColumnDef[],
    shape: 'array' | 'object',
  ) {
    this.encoding = shape === 'array' ? 'compact' : 'object';
    [this.open, this.close] = shape === 'array' ? ['[', ']'] : ['{', '}'];
    this.keys = columns.map((c) => (shape === 'array' ? '' : `${JSON.stringify(c.name)}:`));
    this.nulls = columns.map((c) => (shape === 'array' ? c.type.compactNull : 'null'));
  }
  begin(): string {
    return '[';
  }
  rows(chunk: readonly RawRow[]): string {
    let out = '';
    const n = this.columns.length;
    for (const row of chunk) {
      let item = this.first ? this.open : `,\n${this.open}`;
      this.first = false;
      for (let i = 0; i < n; i++) {
        const raw = row[i];
        item +=
          (i > 0 ? ',' : '') +
          this.keys[i] +
          (raw === null ? this.nulls[i] : this.columns[i].type.json(raw, this.encoding));
      }
      out += item + this.close;
    }
    return out;
  }
  end(): string {
    return ']';
  }
}

/** RFC 4180: a header line, CRLF line ends, fields with commas, quotes or line breaks quoted. */
export class CsvEncoder implements RowEncoder {
  readonly contentType = 'text/csv; charset=utf-8';
  readonly encoding = 'csv' as const;

  constructor(private readonly columns: readonly ColumnDef[]) {}
  begin(): string {
    return this.columns.map((c) => csvField(c.name)).join(',') + '\r\n';
  }
  rows(chunk: readonly RawRow[]): string {
    let out = '';
    for (const row of chunk) {
      for (let i = 0; i < this.columns.length; i++) {
        const raw = row[i];
        out += (i > 0 ? ',' : '') + (raw === null ? '' : csvField(this.columns[i].type.csv(raw)));
      }
      out += '\r\n';
    }
    return out;
  }
  end(): string {
    return '';
  }
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
