/**
 * Why: the sandbox's QuipuSwap StableSwap pools move their reserves by the contract's own integer
 * math (quipuswap-stable-core `math.ligo`): the invariant D and the balance y by Newton's iteration
 * over the rate-normalized balances xp = reserves·rate/10^18, with A kept ×100, and fees cut in parts
 * of 10^10. Every division rounds as the contract's does.
 */
const PRECISION = 10n ** 18n;
const A_PRECISION = 100n;
/** The fee denominator: the pools' fees are parts of 10^10 (the adapter reads them likewise, apart from this). */
const FEE_DENOMINATOR = 10_000_000_000n;

export interface MathToken {
  rate: bigint;
  precision: bigint;
  reserves: bigint;
}

export interface MathFees {
  lp: bigint;
  stakers: bigint;
  ref: bigint;
  /** The factory's dev fee. */
  dev: bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const abs = (x: bigint) => (x < 0n ? -x : x);

export const normalized = (tokens: readonly MathToken[]): bigint[] =>
  tokens.map((t) => (t.rate * t.reserves) / PRECISION);

/** The invariant D of normalized balances `xp` for amplification `ampF` (A ×100). */
export function invariant(xp: readonly bigint[], ampF: bigint): bigint {
  const n = BigInt(xp.length);
  const sum = xp.reduce((a, b) => a + b, 0n);
  const ann = ampF * n;
  let d = sum;
  let prev = 0n;
  while (abs(d - prev) > 1n) {
    let num = d;
    let den = 1n;
    for (const x of xp) {
      num *= d;
      den *= x * n;
    }
    const dP = num / den;
    prev = d;
    d = (((ann * sum) / A_PRECISION + dP * n) * d) / (((ann - A_PRECISION) * d) / A_PRECISION + (n + 1n) * dP);
  }
  return d;
}

/** y with x² + x·(s + D·100/Ann − D) = c, from D and the other balances `others`. */
function solveY(others: readonly bigint[], n: bigint, d: bigint, ampF: bigint): bigint {
  const ann = ampF * n;
  let num = d;
  let den = 1n;
  let s = 0n;
  for (const x of others) {
    s += x;
    num *= d;
    den *= x * n;
  }
  const c = ceilDiv(ceilDiv(num, den) * d * A_PRECISION, ann * n);
  const b = s + (d * A_PRECISION) / ann;
  let y = d;
  let prev = 0n;
  while (abs(y - prev) > 1n) {
    prev = y;
    y = ceilDiv(y * y + c, 2n * y + b - d);
  }
  return y;
}

/** Output dy (before fees) of selling `dx` raw of token i for token j. */
export function swapOut(tokens: readonly MathToken[], i: number, j: number, dx: bigint, ampF: bigint): bigint {
  const xp = normalized(tokens);
  const d = invariant(xp, ampF);
  const others = xp.map((x, k) => (k === i ? xp[i] + (dx * tokens[i].rate) / PRECISION : x)).filter((_, k) => k !== j);
  const y = solveY(others, BigInt(xp.length), d, ampF);
  return ((xp[j] - y) * PRECISION) / tokens[j].rate;
}

/** A swap's fee cut of dy: without stakers their share goes to the LPs; `out` is what the receiver gets. */
export function sliceFee(
  dy: bigint,
  f: MathFees,
  staked: boolean,
): { out: bigint; lp: bigint; stakers: bigint; ref: bigint; dev: bigint } {
  const part = (rate: bigint) => (dy * rate) / FEE_DENOMINATOR;
  const ref = part(f.ref);
  const dev = part(f.dev);
  const stakers = staked ? part(f.stakers) : 0n;
  const lp = part(f.lp) + (staked ? 0n : part(f.stakers));
  return { out: dy - lp - ref - dev - stakers, lp, stakers, ref, dev };
}

/** A fee rate for imbalanced deposits and withdrawals: f·n/(4·(n−1)). */
const balanceRate = (f: bigint, n: bigint) => (f * n) / (4n * (n - 1n));

/**
 * `balance_inputs`: the fees on each token's distance from its ideal (D-proportional) balance. Returns
 * the reserves with the leaving fees (dev, referral, stakers) taken off, and the same without the LP
 * fee, whose invariant prices the shares.
 */
export function balanced(
  before: readonly bigint[],
  d0: bigint,
  after: readonly bigint[],
  d1: bigint,
  f: MathFees,
  staked: boolean,
): { reserves: bigint[]; withoutLp: bigint[] } {
  const n = BigInt(after.length);
  const reserves: bigint[] = [];
  const withoutLp: bigint[] = [];
  after.forEach((r, i) => {
    const diff = abs((d1 * before[i]) / d0 - r);
    const cut = (rate: bigint) => (diff * balanceRate(rate, n)) / FEE_DENOMINATOR;
    const lp = cut(f.lp) + (staked ? 0n : cut(f.stakers));
    const kept = r - cut(f.dev) - cut(f.ref) - (staked ? cut(f.stakers) : 0n);
    reserves.push(kept);
    withoutLp.push(kept - lp);
  });
  return { reserves, withoutLp };
}

/** The balance of token i that brings the invariant to `d`, the others as they are. */
function yForD(xp: readonly bigint[], i: number, d: bigint, ampF: bigint): bigint {
  return solveY(
    xp.filter((_, k) => k !== i),
    BigInt(xp.length),
    d,
    ampF,
  );
}

/** `calc_withdraw_one_coin`: what burning `shares` pays in token i (dy) and the fee kept off it. */
export function withdrawOne(
  tokens: readonly MathToken[],
  supply: bigint,
  shares: bigint,
  i: number,
  ampF: bigint,
  f: MathFees,
): { dy: bigint; fee: bigint } {
  const xp = normalized(tokens);
  const n = BigInt(xp.length);
  const d0 = invariant(xp, ampF);
  const d1 = d0 - (shares * d0) / supply;
  const newY = yForD(xp, i, d1, ampF);
  const rate = balanceRate(f.lp + f.stakers + f.ref + f.dev, n);
  const reduced = xp.map((x, k) => x - ((k === i ? (x * d1) / d0 - newY : x - (x * d1) / d0) * rate) / FEE_DENOMINATOR);
  const dy = (reduced[i] - yForD(reduced, i, d1, ampF)) / tokens[i].precision;
  const dy0 = (xp[i] - newY) / tokens[i].precision;
  return { dy, fee: dy0 - dy };
}
