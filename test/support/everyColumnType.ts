/**
 * Catalog columns (YAML list items, for a table's `columns:`) of every column type, the row id first:
 * for tests that write rows of all of them and compare what the database stores.
 */
export const EVERY_COLUMN_TYPE = `
          - { name: row_id, type: uint64 }
          - { name: n, type: int64 }
          - { name: amount, type: money }
          - { name: big, type: bigint }
          - { name: fx, type: fixed(6), nullable: true }
          - { name: f, type: float64, nullable: true }
          - { name: flag, type: bool }
          - { name: name, type: string, nullable: true }
          - { name: kind, type: "enum(a,b)" }
          - { name: addr, type: address, nullable: true }
          - { name: doc, type: json, nullable: true }
          - { name: data, type: bytes, nullable: true }
          - { name: at, type: datetime, nullable: true }`;
