import type { BigMapDiff, SaplingDiff } from './BigMapDiff';
import { asArray, asInt, asRecords, asString, isRecord } from './jsonRead';
import type { RawOperationResult } from './RawBlock';

function keyChange(bigMapId: number | undefined, update: Record<string, unknown>): BigMapDiff {
  const keyHash = asString(update.key_hash);
  // A key without `value` means the key was deleted.
  return 'value' in update && update.value !== undefined && update.value !== null
    ? { action: 'update', bigMapId, keyHash, key: update.key, value: update.value }
    : { action: 'remove', bigMapId, keyHash, key: update.key };
}

/** Big-map changes from Edo+ `lazy_storage_diff` (sapling entries are skipped here). */
export function bigMapDiffsFromLazyStorage(items: unknown): BigMapDiff[] {
  const out: BigMapDiff[] = [];
  for (const item of asRecords(items)) {
    if (item.kind !== 'big_map' || !isRecord(item.diff)) continue;
    const bigMapId = asInt(item.id);
    const diff = item.diff;
    switch (diff.action) {
      case 'remove':
        out.push({ action: 'remove', bigMapId });
        continue;
      case 'alloc':
        out.push({ action: 'alloc', bigMapId, keyType: diff.key_type, valueType: diff.value_type });
        break;
      case 'copy':
        out.push({ action: 'copy', bigMapId, sourceBigMapId: asInt(diff.source) });
        break;
    }
    for (const update of asRecords(diff.updates)) out.push(keyChange(bigMapId, update));
  }
  return out;
}

/** Big-map changes from the legacy `big_map_diff` (Athens without ids; Babylon…Ithaca with actions). */
export function bigMapDiffsFromLegacy(items: unknown): BigMapDiff[] {
  const out: BigMapDiff[] = [];
  for (const item of asRecords(items)) {
    switch (item.action) {
      case 'alloc':
        out.push({
          action: 'alloc',
          bigMapId: asInt(item.big_map),
          keyType: item.key_type,
          valueType: item.value_type,
        });
        break;
      case 'copy':
        out.push({
          action: 'copy',
          bigMapId: asInt(item.destination_big_map),
          sourceBigMapId: asInt(item.source_big_map),
        });
        break;
      case 'remove':
        out.push({ action: 'remove', bigMapId: asInt(item.big_map) });
        break;
      default:
        // `update`, and Athens entries that have no action at all.
        out.push(keyChange(asInt(item.big_map), item));
    }
  }
  return out;
}

/** The result's big-map changes: `lazy_storage_diff` when the node sent it (it supersedes `big_map_diff`). */
export function bigMapDiffsOf(result: RawOperationResult | undefined): BigMapDiff[] {
  if (!result) return [];
  if (Array.isArray(result.lazy_storage_diff)) return bigMapDiffsFromLazyStorage(result.lazy_storage_diff);
  return bigMapDiffsFromLegacy(result.big_map_diff);
}

export function saplingDiffsOf(result: RawOperationResult | undefined): SaplingDiff[] {
  const out: SaplingDiff[] = [];
  for (const item of asRecords(result?.lazy_storage_diff)) {
    if (item.kind !== 'sapling_state' || !isRecord(item.diff)) continue;
    const updates = isRecord(item.diff.updates) ? item.diff.updates : {};
    out.push({
      action: asString(item.diff.action) ?? 'unknown',
      saplingId: asInt(item.id),
      sourceSaplingId: asInt(item.diff.source),
      memoSize: asInt(item.diff.memo_size),
      commitmentsAndCiphertexts: asArray(updates.commitments_and_ciphertexts),
      nullifiers: asArray(updates.nullifiers),
    });
  }
  return out;
}
