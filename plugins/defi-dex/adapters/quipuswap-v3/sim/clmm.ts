/**
 * Concentrated-liquidity arithmetic in QuipuSwap V3's fixed point (√price × 2^80, bigint only), for
 * the sandbox pool: why a file of its own — the swap walk and the position amounts are the protocol's
 * math, apart from the contract plumbing.
 */
export const Q80 = 1n << 80n;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) [x, y] = [y, (y + n / y) / 2n];
  return x;
}

/** √1.0001 × 2^80: one tick step of the square-root price. */
const STEP = isqrt((10001n * Q80 * Q80) / 10000n);

/** √(1.0001^tick) × 2^80 by squaring (the contract keeps a ladder of the same powers). */
export function sqrtAt(tick: number): bigint {
  let r = Q80;
  let base = STEP;
  for (let e = Math.abs(tick); e > 0; e >>= 1) {
    if (e & 1) r = (r * base) >> 80n;
    base = (base * base) >> 80n;
  }
  return tick < 0 ? (Q80 * Q80) / r : r;
}

/** The tick whose price range holds √price `s`: the largest `i` with sqrtAt(i) ≤ s, searched in [lo, hi]. */
export function tickOf(s: bigint, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (sqrtAt(mid) <= s) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** X and Y that liquidity `l` between √prices `lower` and `upper` holds at √price `s` (rounded up when paid in). */
export function amountsFor(l: bigint, s: bigint, lower: bigint, upper: bigint, roundUp: boolean): [bigint, bigint] {
  const div = roundUp ? ceilDiv : (a: bigint, b: bigint) => a / b;
  const p = s < lower ? lower : s > upper ? upper : s;
  return [div(l * Q80 * (upper - p), p * upper), div(l * (p - lower), Q80)];
}

export interface Tick {
  index: number;
  net: bigint;
  positions: number;
}

export interface SwapResult {
  sqrtPrice: bigint;
  liquidity: bigint;
  tick: number;
  out: bigint;
  /** Ticks crossed, in order. */
  crossed: number[];
}

/**
 * A swap of `amountIn` (fee already taken) through initialized `ticks` (sorted by index): X in moves
 * the price down, Y in up; each crossed tick adds (up) or removes (down) its net liquidity. Undefined
 * when the liquidity runs out before the input is spent.
 */
export function swap(
  xIn: boolean,
  amountIn: bigint,
  s: bigint,
  l: bigint,
  tick: number,
  ticks: readonly Tick[],
): SwapResult | undefined {
  let rest = amountIn;
  let out = 0n;
  const crossed: number[] = [];
  for (;;) {
    const next = xIn ? [...ticks].reverse().find((t) => t.index <= tick) : ticks.find((t) => t.index > tick);
    if (l > 0n) {
      const target = next ? sqrtAt(next.index) : undefined;
      if (xIn) {
        const s1 = ceilDiv(l * s * Q80, l * Q80 + rest * s);
        if (target === undefined || s1 >= target)
          return {
            sqrtPrice: s1,
            liquidity: l,
            tick: tickOf(s1, next?.index ?? tick - 887272, tick),
            out: out + (l * (s - s1)) / Q80,
            crossed,
          };
        rest -= ceilDiv(l * Q80 * (s - target), s * target);
        out += (l * (s - target)) / Q80;
        s = target;
      } else {
        const s1 = s + (rest * Q80) / l;
        if (target === undefined || s1 < target)
          return {
            sqrtPrice: s1,
            liquidity: l,
            tick: tickOf(s1, tick, next ? next.index - 1 : tick + 887272),
            out: out + (l * Q80 * (s1 - s)) / (s * s1),
            crossed,
          };
        rest -= ceilDiv(l * (target - s), Q80);
        out += (l * Q80 * (target - s)) / (s * target);
        s = target;
      }
    } else if (next) {
      s = sqrtAt(next.index);
    }
    if (!next) return undefined;
    crossed.push(next.index);
    l += xIn ? -next.net : next.net;
    tick = xIn ? next.index - 1 : next.index;
  }
}
