import {
  isPrim,
  jsonbStorable,
  metadataText,
  pairSides,
  storableString,
  withoutControls,
  errorMessage,
  member,
} from '../../../framework';

/**
 * Why: TZIP-16 `%metadata` and TZIP-12/21 `token_info` values are bytes that contracts fill as they
 * like (UTF-8 text, PACKed strings or numbers, binary hashes); they are read by one documented rule
 * (`metadataText`, docs/metadata.md) into text a column can always hold, and nothing here throws.
 */

/** A `token_metadata` big map value: `Pair token_id { Elt key bytes; … }`. */
export interface TokenMetadataValue {
  tokenId: bigint;
  /** token_info with every value as text (exactly as stored: no trimming). */
  info: Record<string, string>;
}

export function tokenMetadataValue(value: unknown): TokenMetadataValue | undefined {
  const sides = pairSides(value);
  const id = member(sides?.[0], 'int');
  if (!sides || typeof id !== 'string' || !/^\d+$/.test(id) || !Array.isArray(sides[1])) return undefined;
  const info: Record<string, string> = {};
  for (const elt of sides[1]) {
    if (!isPrim(elt) || elt.prim !== 'Elt') return undefined;
    const [key, bytes] = (elt.args ?? []).map((arg, i) => member(arg, i === 0 ? 'string' : 'bytes'));
    if (typeof key !== 'string' || storableString(key) === undefined) return undefined;
    if (typeof bytes !== 'string') return undefined;
    info[key] = metadataText(bytes);
  }
  return { tokenId: BigInt(id), info };
}

/** Where a TZIP-16 URI points. */
export type MetadataLocation =
  | { kind: 'storage'; contract?: string; key: string }
  | { kind: 'remote'; uri: string }
  | { kind: 'invalid'; reason: string };

/**
 * `tezos-storage:<key>` (this contract), `tezos-storage://<KT1…>/<key>` (another one, keys percent-
 * encoded), `ipfs://…`, `https://…` (and `http://`); `sha256://0x<hash>/<url>` checks are not made,
 * its URL is fetched.
 */
export function metadataLocation(uri: string): MetadataLocation {
  const storage = /^tezos-storage:(?:\/\/(KT1[1-9A-HJ-NP-Za-km-z]{33})(?:\.[A-Za-z0-9]+)?\/)?(.*)$/.exec(uri);
  if (storage) {
    try {
      return { kind: 'storage', contract: storage[1], key: decodeURIComponent(storage[2]) };
    } catch {
      return { kind: 'invalid', reason: `malformed tezos-storage key in '${uri}'` };
    }
  }
  const sha = /^sha256:\/\/0x[0-9a-fA-F]{64}\/(.+)$/.exec(uri);
  if (sha) return metadataLocation(decodeURIComponent(sha[1]));
  if (/^(ipfs|https?):\/\/\S+$/.test(uri)) return { kind: 'remote', uri };
  return { kind: 'invalid', reason: `unsupported metadata URI '${uri.slice(0, 200)}'` };
}

/** Parses a metadata document; errors say what is wrong, for the row's error column. */
export function parseDocument(text: string): { document?: Record<string, unknown>; error?: string } {
  try {
    const doc = JSON.parse(text);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      return { error: 'the document is not a JSON object' };
    if (!jsonbStorable(doc)) {
      return { error: 'the document holds a NUL character or an unpaired surrogate (Postgres cannot store it)' };
    }
    return { document: doc };
  } catch (e) {
    // The parser's message quotes the text, which may hold control characters a text column refuses.
    return { error: `invalid JSON: ${withoutControls(errorMessage(e))}` };
  }
}
