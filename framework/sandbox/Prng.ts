import { blake2bOf } from './Hashing';

/**
 * Small seeded PRNG (sfc32). Every random choice of the sandbox goes through one of these, so a seed
 * and a profile fully determine the chain. Sub-streams are derived by hashing labels, which keeps
 * one block's randomness independent of how much another block consumed.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(state: Uint8Array) {
    const v = new DataView(state.buffer, state.byteOffset, 16);
    this.a = v.getUint32(0, true);
    this.b = v.getUint32(4, true);
    this.c = v.getUint32(8, true);
    this.d = v.getUint32(12, true) | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A stream keyed by the seed and any labels (`Prng.derive(seed, 'block', level, branch)`). */
  static derive(...labels: (string | number | bigint)[]): Prng {
    return new Prng(blake2bOf(16, labels.map(String).join('\u0000')));
  }

  /** An independent child stream, e.g. one per operation family inside a block. */
  fork(label: string | number): Prng {
    return Prng.derive('fork', this.u32(), this.u32(), label);
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n > 0)) throw new RangeError(`Prng.int needs a positive bound, got ${n}`);
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** Uniform bigint in [min, max]. */
  bigRange(min: bigint, max: bigint): bigint {
    if (max <= min) return min;
    const span = max - min + 1n;
    const r = (BigInt(this.u32()) << 32n) | BigInt(this.u32());
    return min + (r % span);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Prng.pick on an empty list');
    return items[this.int(items.length)];
  }

  /** Index drawn with probability proportional to `weights[i]`. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /**
   * Many draws from the same weights (a committee's remaining slots): cumulative sums and a binary
   * search instead of two passes over the weights per draw.
   */
  weightedMany(weights: readonly number[], draws: number, onDraw: (index: number) => void): void {
    const cumulative = new Float64Array(weights.length);
    let total = 0;
    weights.forEach((w, i) => (cumulative[i] = total += w));
    for (let k = 0; k < draws; k++) {
      const r = this.float() * total;
      let lo = 0;
      let hi = weights.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] > r) hi = mid;
        else lo = mid + 1;
      }
      onDraw(lo);
    }
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.u32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 255;
    }
    return out;
  }

  hex(nBytes: number): string {
    return Buffer.from(this.bytes(nBytes)).toString('hex');
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}
