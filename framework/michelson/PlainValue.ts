import { metadataText, unpacked } from './ChainBytes';
import { decodeWith, ValueRendering } from './MichelsonJson';

/**
 * Parameters and storage as indexing handlers want them: the explorer's decoder (records → objects,
 * `or` → `{branch: value}`, options → null or the value, addresses base58) with plain leaves instead
 * of JSON text: nat/int/mutez → bigint, timestamps → Date, maps → Map, big maps → their id (a number).
 */
export interface PlainOptions {
  /**
   * `hex` (default) keeps bytes as hex; `text` reads them as TZIP-16/21 metadata does (`metadataText`),
   * a PACKed number as a bigint.
   */
  bytes?: 'hex' | 'text';
  /** Throw when any part of the value does not match the type (what recognizing a contract by its storage needs). */
  strict?: boolean;
}

const HEX: ValueRendering = {
  integer: (d) => BigInt(d),
  bigMap: (id) => Number(id),
  timestamp: (s) => new Date(Number(s) * 1000),
  timestampText: (t) => (Number.isNaN(Date.parse(t)) ? t : new Date(t)),
  bytes: (hex) => hex,
  map: (entries) => new Map(entries.map((e) => [e.key, e.value])),
};

const TEXT: ValueRendering = { ...HEX, bytes: (hex) => bytesText(hex) };

export function plainValue(type: unknown, value: unknown, options: PlainOptions = {}): unknown {
  const r = options.bytes === 'text' ? TEXT : HEX;
  return decodeWith(options.strict ? { ...r, strict: true } : r, type, value);
}

/** Bytes read as TZIP-16/21 metadata reads them (`metadataText`), but a PACKed number as a bigint. */
export function bytesText(hex: string): string | bigint {
  const m = unpacked(Buffer.from(hex, 'hex')) as { int?: string } | undefined;
  return typeof m?.int === 'string' ? BigInt(m.int) : metadataText(hex);
}
