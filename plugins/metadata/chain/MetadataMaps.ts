import { fieldName, isPrim, walkMicheline } from '../../../framework';
import type { BigMapDiff } from '../../../framework';

/** The ids of a newly originated contract's TZIP-16 `%metadata` and TZIP-12 `%token_metadata` big maps. */
export interface MetadataMapIds {
  metadata?: number;
  tokenMetadata?: number;
}

/**
 * Which of the big maps an origination allocated are the metadata maps. The protocol numbers fresh big
 * maps in the order it meets them in the storage, left to right, so the n-th `big_map` of the storage
 * type takes the n-th smallest new id. Storage types whose big maps sit in `or`/`option` branches can
 * allocate fewer maps than they declare: then nothing is matched rather than a wrong id.
 */
export function metadataMapIds(storageType: unknown, diffs: readonly BigMapDiff[]): MetadataMapIds {
  const names: Array<string | undefined> = [];
  walkMicheline(storageType, (t) => {
    if (!isPrim(t)) return undefined;
    if (t.prim === 'big_map') names.push(fieldName(t));
    return t.prim === 'big_map' ? undefined : t.args;
  });
  const ids = diffs
    .filter((d) => d.action === 'alloc' || d.action === 'copy')
    .map((d) => d.bigMapId)
    .filter((id): id is number => id !== undefined && id >= 0)
    .sort((a, b) => a - b);
  if (ids.length !== names.length) return {};
  const out: MetadataMapIds = {};
  names.forEach((name, i) => {
    if (name === 'metadata') out.metadata = ids[i];
    if (name === 'token_metadata') out.tokenMetadata = ids[i];
  });
  return out;
}
