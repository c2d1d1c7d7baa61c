import type { UpdateOrigin, ValueRead } from './BigmapReader';
import type { BigmapsRead, BigmapUpdatesRead } from '../tables.generated';
import { michelineFromHex, timeOrZero, typedef, typedValue } from '../../../framework';

/** A bigmap's key and value types as Micheline; undefined when the index never saw its allocation. */
export interface BigmapTypes {
  keyType: unknown;
  valueType: unknown;
}

/** What list items and single values carry besides key and value. */
export interface ItemOptions {
  prim: boolean;
  meta: boolean;
}

export function typesOf(bigmap: BigmapsRead): BigmapTypes {
  return { keyType: michelineFromHex(bigmap.key_type), valueType: michelineFromHex(bigmap.value_type) };
}

/** A Micheline value as JSON read with its type; the Micheline itself when the type is unknown. */
function decoded(type: unknown, value: unknown): unknown {
  return type === undefined ? value : typedValue(type, value);
}

/**
 * `/explorer/bigmap/{id}`: the bigmaps row with its types as typedefs (and Micheline with `prim`;
 * the `*_prim` keys are always there, null without `prim`, as the TzPro SDK's Bigmap reads them).
 */
export function bigmapObject(row: BigmapsRead, prim: boolean): Record<string, unknown> {
  const { keyType, valueType } = typesOf(row);
  return {
    row_id: row.row_id,
    contract: row.contract,
    bigmap_id: row.bigmap_id,
    n_updates: row.n_updates,
    n_keys: row.n_keys,
    alloc_height: row.alloc_height,
    alloc_block: row.alloc_block,
    alloc_time: timeOrZero(row.alloc_time),
    update_height: row.update_height,
    update_block: row.update_block,
    update_time: row.update_time,
    delete_height: row.delete_height ?? 0,
    delete_block: row.delete_block ?? '',
    delete_time: timeOrZero(row.delete_time),
    key_type: keyType === undefined ? null : typedef(keyType, 'key'),
    value_type: valueType === undefined ? null : typedef(valueType, 'value'),
    key_type_prim: prim ? (keyType ?? null) : null,
    value_type_prim: prim ? (valueType ?? null) : null,
  };
}

/** One live key (`/keys`), or with its value (`/values`, `/{key}`); `row_id` is the cursor of the lists. */
export function valueObject(
  bigmap: BigmapsRead,
  row: ValueRead,
  withValue: boolean,
  o: ItemOptions,
): Record<string, unknown> {
  const { keyType, valueType } = typesOf(bigmap);
  const key = michelineFromHex(row.key);
  const value = michelineFromHex(row.value);
  const withMeta = o.meta ? { meta: meta(bigmap, row, undefined) } : {};
  const where = { bigmap_id: row.bigmap_id, key_id: row.key_id, height: row.height, time: row.time };
  if (!withValue)
    return {
      row_id: row.row_id,
      key: decoded(keyType, key),
      hash: row.hash,
      ...where,
      ...withMeta,
      ...(o.prim ? { prim: key } : {}),
    };
  return {
    row_id: row.row_id,
    ...where,
    key: decoded(keyType, key),
    hash: row.hash,
    value: decoded(valueType, value),
    ...withMeta,
    ...(o.prim ? { key_prim: key, value_prim: value } : {}),
  };
}

/** One bigmap_updates row (`/updates`): keyed changes with key and value, alloc and copy with the types they set. */
export function updateObject(
  bigmap: BigmapsRead,
  row: BigmapUpdatesRead,
  origin: UpdateOrigin | undefined,
  o: ItemOptions,
): Record<string, unknown> {
  // `hash` and `key` always (null for alloc, copy and bigmap removal): the SDK's update embeds a value.
  const out: Record<string, unknown> = {
    row_id: row.row_id,
    key_id: row.action === 'copy' ? 0 : row.key_id,
    height: row.height,
    time: row.time,
    key: null,
    hash: row.hash,
  };
  const key = michelineFromHex(row.key);
  const value = michelineFromHex(row.value);
  if (row.action === 'update' || row.action === 'remove') {
    const { keyType, valueType } = typesOf(bigmap);
    if (key !== undefined) out.key = decoded(keyType, key);
    if (value !== undefined) out.value = decoded(valueType, value);
    if (o.meta) out.meta = meta(bigmap, row, origin);
    if (o.prim && key !== undefined) out.key_prim = key;
    if (o.prim && value !== undefined) out.value_prim = value;
  } else if (o.meta) out.meta = meta(bigmap, row, origin);
  out.action = row.action;
  out.bigmap_id = row.bigmap_id;
  if (row.action === 'alloc' || row.action === 'copy') {
    if (key !== undefined) out.key_type = typedef(key, 'key');
    if (value !== undefined) out.value_type = typedef(value, 'value');
    if (o.prim && key !== undefined) out.key_type_prim = key;
    if (o.prim && value !== undefined) out.value_type_prim = value;
  }
  if (row.action === 'copy') {
    out.source_big_map = row.key_id;
    out.destination_big_map = row.bigmap_id;
  }
  return out;
}

/** Where a value or update sits: its bigmap, block and (updates) the operation that made it. */
function meta(
  bigmap: BigmapsRead,
  row: ValueRead & { op?: string | null },
  origin: UpdateOrigin | undefined,
): Record<string, unknown> {
  return {
    contract: bigmap.contract,
    bigmap_id: bigmap.bigmap_id,
    time: row.time,
    height: row.height,
    op: row.op ?? null,
    sender: origin?.sender ?? null,
    source: origin?.source ?? null,
  };
}
