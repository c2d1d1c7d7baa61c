import { hash } from 'node:crypto';

/**
 * Base58check with a fixed prefix and payload length, in both directions, for hashes stored as their raw
 * payload (BinaryHashType): every op hash written is decoded and every one read is encoded. Why not
 * taquito's codec: it converts a byte at a time and hashes with a JS SHA-256; this one takes two bytes
 * (or four digits) a step and Node's one-shot SHA-256, which is most of its time.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT = new Map([...ALPHABET].map((c, i) => [c.charCodeAt(0), i]));
/** 58^4: four base58 digits per limb, limb × 65536 + carry stays below 2^53. */
const LIMB = 58 ** 4;

function checksum(bytes: Uint8Array): Buffer {
  return hash('sha256', hash('sha256', bytes, 'buffer'), 'buffer').subarray(0, 4);
}

/** Base58 of `bytes` (big-endian number; each leading zero byte a leading '1'). */
function encode(bytes: Uint8Array): string {
  const limbs: number[] = [];
  let i = bytes.length % 2;
  // An odd first byte alone, then two bytes at a time: each step multiplies by 256 or 65536.
  const feed = (carry: number, base: number) => {
    for (let j = 0; j < limbs.length; j++) {
      carry += limbs[j] * base;
      limbs[j] = carry % LIMB;
      carry = Math.floor(carry / LIMB);
    }
    for (; carry > 0; carry = Math.floor(carry / LIMB)) limbs.push(carry % LIMB);
  };
  if (i === 1) feed(bytes[0], 256);
  for (; i < bytes.length; i += 2) feed(bytes[i] * 256 + bytes[i + 1], 65536);
  let out = '';
  for (let j = 0; j < limbs.length; j++)
    for (let k = 0, v = limbs[j]; k < 4; k++, v = Math.floor(v / 58)) out = ALPHABET[v % 58] + out;
  out = out.replace(/^1+/, '');
  for (let z = 0; z < bytes.length && bytes[z] === 0; z++) out = '1' + out;
  return out;
}

/** The bytes of a base58 text, or undefined when a character is not base58. */
function decode(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let carry = DIGIT.get(text.charCodeAt(i));
    if (carry === undefined) return undefined;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff);
  }
  for (let z = 0; z < text.length && text[z] === '1'; z++) bytes.push(0);
  return Uint8Array.from(bytes.reverse());
}

/** `prefix` + `payload` + checksum, in base58. */
export function base58check(prefix: Uint8Array, payload: Uint8Array): string {
  const body = Buffer.concat([prefix, payload]);
  return encode(Buffer.concat([body, checksum(body)]));
}

/**
 * The payload of a base58check text with this prefix and payload length, or undefined when it is none;
 * `verify`: its checksum checked too (two SHA-256; a text that only misses it names another's payload).
 */
export function base58checkPayload(
  text: string,
  prefix: Uint8Array,
  length: number,
  verify: boolean,
): Buffer | undefined {
  const bytes = decode(text);
  if (bytes?.length !== prefix.length + length + 4) return undefined;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return undefined;
  const body = bytes.subarray(0, prefix.length + length);
  if (verify && !checksum(body).equals(bytes.subarray(body.length))) return undefined;
  return Buffer.from(body.subarray(prefix.length));
}
