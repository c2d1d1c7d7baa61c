import { packDataBytes, unpackData } from '@taquito/michel-codec';

/**
 * Why: contracts store arbitrary bytes (PACKed values, UTF-8 text, image hashes), and Postgres text
 * and jsonb refuse NUL and invalid UTF-8, so one batch holding such bytes as text failed for good.
 * These functions turn chain bytes into text that a column can always hold, the same way everywhere.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** C0 controls other than tab, LF and CR, and DEL: binary data, not text (NUL among them). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The bytes as text when they are UTF-8 without control characters; undefined otherwise. */
export function storableText(bytes: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return CONTROL.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** A string a text or jsonb column can hold: itself, or undefined when it has a control character. */
export function storableString(text: string): string | undefined {
  return CONTROL.test(text) ? undefined : text;
}

/** The text with each control character replaced by U+FFFD (messages that quote chain data). */
export function withoutControls(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'g'), '\ufffd');
}

/**
 * The value of PACKed bytes (`05` + binary Micheline) as the codec unpacks it, or undefined when the
 * bytes are not one: the codec fails (too deep, malformed) or packing its result does not give the
 * same bytes back (trailing or non-canonical bytes the codec ignored).
 */
export function unpacked(bytes: Uint8Array): unknown {
  if (bytes.length < 2 || bytes[0] !== 0x05) return undefined;
  try {
    const value = unpackData(bytes);
    return packDataBytes(value).bytes === Buffer.from(bytes).toString('hex') ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bytes read as TZIP-12/16 metadata values (docs/metadata.md): a PACKed value's content (a string, an
 * int in decimal, bytes by this same rule, anything else as compact Micheline JSON); otherwise UTF-8
 * text without control characters; otherwise hex. Total: never throws, never returns NUL.
 */
export function metadataText(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  const value = unpacked(bytes) as { string?: string; int?: string; bytes?: string } | undefined;
  if (value !== undefined) {
    if (typeof value.string === 'string') return storableString(value.string) ?? hex;
    if (typeof value.int === 'string') return value.int;
    if (typeof value.bytes === 'string') return metadataText(value.bytes);
    return JSON.stringify(value);
  }
  return storableText(bytes) ?? bytes.toString('hex');
}

/** A `\u0000` or lone-surrogate escape after an even number of backslashes, as JSON.stringify writes them. */
const JSONB_REFUSED = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * Whether Postgres's jsonb takes the value (a parsed metadata document, say): it refuses the NUL
 * character and unpaired surrogates in any string or key, which JSON.parse accepts.
 */
export function jsonbStorable(value: unknown): boolean {
  return !JSONB_REFUSED.test(JSON.stringify(value) ?? '');
}
