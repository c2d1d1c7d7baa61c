import { plainValue, type BigMapDiff } from '../../framework';
import type { ContractTypes } from '../../framework/michelson/ContractTypes';

/*
 * Why: a storage holds only its big maps' ids, so checking a storage against a type says nothing of the
 * big maps' key and value types. This reads every entry a call wrote with the type of the named big map
 * it went to (the storage, read with the same types, tells which id is which map).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The storage type's big maps by annotation (names must be unique). */
function bigMapTypes(type: Json, out = new Map<string, Json>()): Map<string, Json> {
  if (type?.prim === 'big_map' && type.annots?.[0]) out.set(type.annots[0].slice(1), type);
  for (const a of type?.args ?? []) bigMapTypes(a, out);
  return out;
}

/** The plain storage's big map ids by field name. */
function bigMapIds(value: unknown, out = new Map<number, string>()): Map<number, string> {
  if (value === null || typeof value !== 'object' || value instanceof Date || value instanceof Map) return out;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'number') out.set(v, k);
    else bigMapIds(v, out);
  }
  return out;
}

/** Reads (strictly) every entry the call wrote; throws naming the map when one does not fit. Returns how many. */
export function readBigMapEntries(types: ContractTypes, storage: unknown, diffs: readonly BigMapDiff[]): number {
  const byName = bigMapTypes(types.storageType);
  const ids = bigMapIds(types.storage(storage, { strict: true }));
  let read = 0;
  for (const d of diffs) {
    if (d.action !== 'update' && d.action !== 'remove') continue;
    const name = d.bigMapId === undefined ? undefined : ids.get(Number(d.bigMapId));
    const type = name === undefined ? undefined : byName.get(name);
    if (!type || d.key === undefined) continue;
    try {
      plainValue(type.args[0], d.key, { strict: true });
      if (d.action === 'update' && d.value !== undefined) plainValue(type.args[1], d.value, { strict: true });
    } catch (e) {
      throw new Error(`big map ${name}: ${(e as Error).message}`);
    }
    read++;
  }
  return read;
}
