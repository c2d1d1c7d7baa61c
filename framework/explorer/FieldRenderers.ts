import type { FieldRender } from '../catalog/CatalogModel';
import { michelineFromHex } from '../michelson/ContractCode';

/**
 * The named value transformations a declared route may apply to a field (`render:` in tables.yaml),
 * for values whose explorer form is not the column's own rendering. Named, so tables.yaml stays data
 * and the schema can list them.
 */
export const FIELD_RENDERERS: Readonly<Record<FieldRender, (value: unknown) => unknown>> = {
  /** Binary Micheline (hex) as Micheline JSON; null when absent or undecodable. */
  micheline: (value) => michelineFromHex(value as string | null) ?? null,
  /** A comma-separated string as a list; empty for none. */
  csv_list: (value) => (typeof value === 'string' && value !== '' ? value.split(',') : []),
};
