/** Bitsets of a cycle's blocks (bit i = the cycle's i-th block, least significant bit first in each byte), grown on demand. */
export function setBit(stored: unknown, i: number): Buffer {
  const bits = asBits(stored);
  const need = (i >> 3) + 1;
  const out = Buffer.alloc(Math.max(need, bits?.length ?? 0));
  if (bits) bits.copy(out);
  out[i >> 3] |= 1 << (i & 7);
  return out;
}

export function hasBit(bits: Buffer | null | undefined, i: number): boolean {
  return !!bits && i >> 3 < bits.length && (bits[i >> 3] & (1 << (i & 7))) !== 0;
}

export function countBits(bits: Buffer | null | undefined): number {
  let n = 0;
  for (const b of bits ?? []) for (let v = b; v; v &= v - 1) n++;
  return n;
}

/** Bytes as the drivers hand them back (Buffer, Uint8Array or hex text). */
export function asBits(v: unknown): Buffer | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return Buffer.from(v.startsWith('\\x') ? v.slice(2) : v, 'hex');
  if (isJsonBuffer(v)) return Buffer.from(v.data);
  return Buffer.from(v as Uint8Array);
}

function isJsonBuffer(v: unknown): v is { data: number[] } {
  return typeof v === 'object' && v !== null && Array.isArray((v as { data?: unknown }).data);
}
