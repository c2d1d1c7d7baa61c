import type { Knex } from 'knex';
import { type ColumnDef, storedName } from '../catalog/CatalogModel';
import { quote } from '../storage/SchemaMigrator';

/**
 * The SQL reading a column in a query over its table: the stored column; for a sparse one
 * (ColumnDecl.sparse) with its NULLs read as the zeros they stand for; for a packed one not stored
 * (ColumnDecl.packs), computed from its two columns; for a column the table keeps only as an id
 * (ColumnDecl.filter_via `stored: false`), the other table's key of the row that id names (op
 * `sender`: the address of the account `sender_id`), one index lookup per row.
 */
export function columnSql(column: ColumnDef): string {
  if (column.sparse) return `coalesce(${quote(column.name)}, 0)`;
  const packs = column.packs;
  if (packs?.stored === false) return `((${quote(packs.high.name)} << ${packs.bits}) | ${quote(packs.low.name)})`;
  const via = column.via;
  if (via === undefined || via.stored) return quote(storedName(column));
  const orphan = via.orphan === undefined ? '' : ` and not v.${quote(via.orphan)}`;
  return `(select v.${quote(via.key.name)} from ${quote(via.schema)}.${quote(via.storage)} v where v.${quote(via.value)} = ${quote(via.owner)}.${quote(via.column.name)}${orphan})`;
}

/** The column in a select list under its own name, however it is read (columnSql): for plugin queries. */
export function selectColumn(knex: Knex, column: ColumnDef): Knex.Raw {
  return knex.raw(`${columnSql(column)} as ${quote(column.name)}`);
}
