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

/** `[[v1,v2],[v1,v2]]`, values in the requested column order (the tables API). */
export class JsonArrayEncoder implements RowEncoder {
  readonly contentType = 'application/json; charset=utf-8';
  readonly encoding = 'compact' as const;
  private first = true;
  private readonly cells: Array<(raw: string) => string>;

  constructor(columns: readonly ColumnDef[]) {
    this.cells = columns.map((c) => (raw) => c.type.json(raw, 'compact'));
  }
  begin(): string {
    return '[';
  }
  rows(chunk: readonly RawRow[]): string {
    let out = '';
    const n = this.cells.length;
    for (const row of chunk) {
      let line = this.first ? '[' : ',\n[';
      this.first = false;
      for (let i = 0; i < n; i++) {
        const raw = row[i];
        line += (i > 0 ? ',' : '') + (raw === null ? 'null' : this.cells[i](raw));
      }
      out += line + ']';
    }
    return out;
  }
  end(): string {
    return ']';
  }
}

/** `[{"name":value,…},…]` with RFC3339 times and true/false (DeFi and other object lists). */
export class JsonObjectEncoder implements RowEncoder {
  readonly contentType = 'application/json; charset=utf-8';
  readonly encoding = 'object' as const;
  private first = true;
  private readonly keys: string[];

  constructor(private readonly columns: readonly ColumnDef[]) {
    this.keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
  }
  begin(): string {
    return '[';
  }
  rows(chunk: readonly RawRow[]): string {
    let out = '';
    for (const row of chunk) {
      let obj = this.first ? '{' : ',\n{';
      this.first = false;
      for (let i = 0; i < this.columns.length; i++) {
        const raw = row[i];
        obj += (i > 0 ? ',' : '') + this.keys[i] + (raw === null ? 'null' : this.columns[i].type.json(raw, 'object'));
      }
      out += obj + '}';
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
