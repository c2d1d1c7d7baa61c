import type { Micheline } from './RawBlock';

/**
 * One big-map change, the same for the legacy `big_map_diff` (Athens…Ithaca) and `lazy_storage_diff`
 * (Edo+). Ids are node decimal strings turned into numbers; temporary big maps have negative ids.
 * Athens diffs carry no id (each contract had at most one big map): `bigMapId` is then undefined.
 */
export type BigMapDiff =
  | { action: 'alloc'; bigMapId?: number; keyType?: Micheline; valueType?: Micheline }
  | { action: 'copy'; bigMapId?: number; sourceBigMapId?: number }
  /** A key set to `value`. */
  | { action: 'update'; bigMapId?: number; keyHash?: string; key: Micheline; value: Micheline }
  /** With `key`/`keyHash`: that key was deleted. Without: the whole big map was removed. */
  | { action: 'remove'; bigMapId?: number; keyHash?: string; key?: Micheline };

/** A sapling state change from `lazy_storage_diff` (kept close to the node's shape). */
export interface SaplingDiff {
  action: string;
  saplingId?: number;
  sourceSaplingId?: number;
  memoSize?: number;
  commitmentsAndCiphertexts: unknown[];
  nullifiers: unknown[];
}
