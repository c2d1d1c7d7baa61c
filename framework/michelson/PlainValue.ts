import { decodeMicheline } from './Michelson';
import { decodeWith, ValueRendering } from './MichelsonJson';

/**
 * Parameters and storage as indexing handlers want them: the explorer's decoder (records → objects,
 * `or` → `{branch: value}`, options → null or the value, addresses base58) with plain leaves instead
 * of JSON text: nat/int/mutez → bigint, timestamps → Date, maps → Map, big maps → their id (a number).
 */
export interface PlainOptions {
  /**
   * `hex` (default) keeps bytes as hex; `text` reads them as TZIP-16/21 metadata does: UTF-8 text when
   * they are printable, the value inside when they are a PACKed string or number, else hex.
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text when they are printable UTF-8 or a PACKed string/number; hex otherwise. */
export function bytesText(hex: string): string | bigint {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes[0] === 0x05) {
    try {
      const m = decodeMicheline(bytes.subarray(1)) as { string?: string; int?: string };
      if (typeof m.string === 'string') return m.string;
      if (typeof m.int === 'string') return BigInt(m.int);
    } catch {
      // not a PACKed value: fall through
    }
  }
  try {
    const text = utf8.decode(bytes);
    // eslint-disable-next-line no-control-regex
    if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return text;
  } catch {
    // not UTF-8
  }
  return hex;
}
