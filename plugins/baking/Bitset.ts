import { member } from '../../framework';

/**
 * Bitsets of a cycle's blocks (bit i = the cycle's i-th block, least significant bit first in each byte), grown on
 * demand.
 */
export function setBit(stored: unknown, i: number): Buffer {
  // A new buffer (the stored one may be a journaled pre-image): one copy, not a decode and a copy,
  // from Node's pool (small bitsets are set for every attestation: one ArrayBuffer each weighs on GC).
  const bits = stored instanceof Uint8Array ? stored : asBits(stored);
  const need = (i >> 3) + 1;
  const have = bits?.length ?? 0;
  const out = Buffer.allocUnsafe(Math.max(need, have));
  if (bits) out.set(bits);
  out.fill(0, have);
  out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** Sets bits in place while a cycle's rights are gathered (one buffer per baker, not one per bit). */
export class BitsetBuilder {
  private bits: Buffer;

  /** Starts empty, or from stored bits (a window of rights added to those of earlier windows). */
  constructor(stored?: unknown) {
    this.bits = Buffer.from(asBits(stored) ?? Buffer.alloc(0));
  }

  set(i: number): void {
    const need = (i >> 3) + 1;
    if (need > this.bits.length) {
      const grown = Buffer.alloc(Math.max(need, this.bits.length * 2));
      this.bits.copy(grown);
      this.bits = grown;
    }
    this.bits[i >> 3] |= 1 << (i & 7);
  }

  has(i: number): boolean {
    return hasBit(this.bits, i);
  }

  /** The bitset trimmed to its highest set byte, as setBit would have grown it. */
  done(): Buffer {
    let end = this.bits.length;
    while (end > 0 && this.bits[end - 1] === 0) end--;
    return this.bits.subarray(0, end);
  }
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
  if (v instanceof Uint8Array) return Buffer.from(v);
  const data = member(v, 'data');
  return Array.isArray(data) ? Buffer.from(data) : null;
}
