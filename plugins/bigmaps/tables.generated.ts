// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** bigmap allocations with their current key count and life span (one row per permanent bigmap) */
export type BigmapsRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** on-chain bigmap id */
  bigmap_id: bigint | number;
  /** account row id of the owning contract; null when the owner is unknown (a protocol migration) */
  account_id?: bigint | number | null;
  /** allocation (or copy) height; null when the allocation is older than the indexed chain */
  alloc_height?: bigint | number | null;
  /** key updates so far: sets and removals, including the keys a copy brought and a removal of the bigmap deleted */
  n_updates: bigint | number;
  /** live keys */
  n_keys: bigint | number;
  /** height of the latest change */
  update_height: bigint | number;
  /** height at which the bigmap was removed; null while live */
  delete_height?: bigint | number | null;
  /** owning contract address (the contract whose storage holds the bigmap) */
  contract?: string | null;
  /** time of block alloc_height */
  alloc_time?: Date | number | string | null;
  /** hash of block alloc_height */
  alloc_block?: string | null;
  /** time of block update_height */
  update_time: Date | number | string;
  /** hash of block update_height */
  update_block: string;
  /** time of block delete_height */
  delete_time?: Date | number | string | null;
  /** hash of block delete_height */
  delete_block?: string | null;
  /**
   * key type as binary Micheline (annotated from the contract's storage type where the node sent none); null when
   * unknown
   */
  key_type?: string | Uint8Array | null;
  /** value type as binary Micheline (annotated like key_type); null when unknown */
  value_type?: string | Uint8Array | null;
};

/** A bigmaps row as read (CatalogRows): values as explorer objects show them. */
export type BigmapsRead = {
  row_id: number | bigint;
  bigmap_id: number | bigint;
  account_id: number | bigint | null;
  alloc_height: number | bigint | null;
  n_updates: number | bigint;
  n_keys: number | bigint;
  update_height: number | bigint;
  delete_height: number | bigint | null;
  contract: string | null;
  alloc_time: string | null;
  alloc_block: string | null;
  update_time: string;
  update_block: string;
  delete_time: string | null;
  delete_block: string | null;
  key_type: string | null;
  value_type: string | null;
};

/** currently live bigmap values, one row per live key, derived from bigmap_updates (removed keys are deleted) */
export type BigmapValuesRow = {
  /** row_id of the bigmap_updates row that wrote the current value (it changes when the key is updated) */
  row_id?: bigint | number;
  /** on-chain bigmap id */
  bigmap_id: bigint | number;
  /** height of the latest update of the key */
  height: bigint | number;
  /** first 63 bits of the key hash digest, big-endian (joins bigmap_updates) */
  key_id: bigint | number;
  /** key as binary Micheline */
  key: string | Uint8Array;
  /** value as binary Micheline */
  value: string | Uint8Array;
  /** key hash (expr…) */
  hash: string;
  /** time of block height */
  time: Date | number | string;
};

/** A bigmap_values row as read (CatalogRows): values as explorer objects show them. */
export type BigmapValuesRead = {
  row_id: number | bigint;
  bigmap_id: number | bigint;
  height: number | bigint;
  key_id: number | bigint;
  key: string;
  value: string;
  hash: string;
  time: string;
};

/** historic bigmap updates of permanent bigmaps, including removals, copies and allocations */
export type BigmapUpdatesRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** on-chain id of the updated (for copy: destination) bigmap */
  bigmap_id: bigint | number;
  /**
   * first 63 bits of the key hash digest, big-endian; for copy the source bigmap id (negative: a temporary bigmap);
   * null for alloc and bigmap removal
   */
  key_id?: bigint | number | null;
  /** kind of update */
  action: 'update' | 'remove' | 'copy' | 'alloc';
  /** id of the operation that made the update (height<<16 | op_n, the op table's id column) */
  op_id: bigint | number;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
  /** key as binary Micheline (alloc and copy: the key type); null for bigmap removal and unknown types */
  key?: string | Uint8Array | null;
  /** new value as binary Micheline (alloc and copy: the value type); null for removals */
  value?: string | Uint8Array | null;
  /** hash of the operation that made the update; null for protocol migrations */
  op?: string | null;
  /** key hash (expr…); null for alloc, copy and bigmap removal */
  hash?: string | null;
};

/** A bigmap_updates row as read (CatalogRows): values as explorer objects show them. */
export type BigmapUpdatesRead = {
  row_id: number | bigint;
  bigmap_id: number | bigint;
  key_id: number | bigint | null;
  action: 'update' | 'remove' | 'copy' | 'alloc';
  op_id: number | bigint;
  height: number | bigint;
  time: string;
  key: string | null;
  value: string | null;
  op: string | null;
  hash: string | null;
};

/** Typed handles of the bigmaps tables: `ctx.append(tables.bigmaps, row)`. */
export const tables = {
  bigmaps: tableHandle<BigmapsRow, BigmapsRead>('bigmaps'),
  bigmap_values: tableHandle<BigmapValuesRow, BigmapValuesRead>('bigmap_values'),
  bigmap_updates: tableHandle<BigmapUpdatesRow, BigmapUpdatesRead>('bigmap_updates'),
} as const;
