import { decodeMicheline, isPrim, pairSides } from '../../../framework';

/**
 * Values of TZIP-16 `%metadata` and TZIP-12/21 `token_info` maps are bytes holding text. Most
 * contracts store the UTF-8 text itself; some store it PACKed (`05` + binary Micheline of a string).
 */
export function metadataText(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length > 1 && bytes[0] === 0x05) {
    try {
      const v = decodeMicheline(bytes.subarray(1)) as { string?: string; bytes?: string };
      if (typeof v?.string === 'string') return v.string;
      if (typeof v?.bytes === 'string') return Buffer.from(v.bytes, 'hex').toString('utf8');
    } catch {
      // not PACKed after all: plain bytes that happen to start with 0x05
    }
  }
  return bytes.toString('utf8');
}

/** A `token_metadata` big map value: `Pair token_id { Elt key bytes; … }`. */
export interface TokenMetadataValue {
  tokenId: bigint;
  /** token_info with every value as text (exactly as stored: no trimming). */
  info: Record<string, string>;
}

export function tokenMetadataValue(value: unknown): TokenMetadataValue | undefined {
  const sides = pairSides(value);
  const id = sides?.[0] as { int?: string } | undefined;
  if (!sides || typeof id?.int !== 'string' || !Array.isArray(sides[1])) return undefined;
  const info: Record<string, string> = {};
  for (const elt of sides[1]) {
    if (!isPrim(elt) || elt.prim !== 'Elt') return undefined;
    const [k, v] = (elt.args ?? []) as Array<{ string?: string; bytes?: string }>;
    if (typeof k?.string !== 'string' || typeof v?.bytes !== 'string') return undefined;
    info[k.string] = metadataText(v.bytes);
  }
  return { tokenId: BigInt(id.int), info };
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
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: 'the document is not a JSON object' };
    return { document: doc };
  } catch (e) {
    return { error: `invalid JSON: ${(e as Error).message}` };
  }
}
