/**
 * The flat curve of Youves' CFMMs (the ctez/checker "flat CFMM" lineage), as the contract computes it,
 * so the simulator trades exactly like the contract and the adapter can tell the curve's output from
 * the fee kept: u(x, y) = (x+y)⁸ − (x−y)⁸ on the reserves scaled by their multipliers, solved for the
 * output by a fixed number of Newton steps from 0 (an underestimate) in integer arithmetic.
 */
export const NEWTON_ROUNDS = 4;

/** The fee ratio the pool pays out of the curve's output: out = ⌊numerator·W/denominator⌋. */
export interface FeeRatio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** A trade's two sides: reserves and multipliers of the input and output tokens. */
export interface FlatSides {
  readonly inPool: bigint;
  readonly outPool: bigint;
  readonly inMultiplier: bigint;
  readonly outMultiplier: bigint;
}

const abs = (v: bigint) => (v < 0n ? -v : v);
/** Michelson's EDIV quotient (the remainder is never negative). */
const ediv = (a: bigint, b: bigint) => (a >= 0n || a % b === 0n ? a / b : a / b - 1n);

function util(x: bigint, y: bigint): { u: bigint; du: bigint } {
  const plus = x + y;
  const minus = x - y;
  const plus8 = plus ** 8n;
  const minus8 = minus ** 8n;
  const minus7 = minus === 0n ? 0n : minus8 / minus;
  return { u: abs(plus8 - minus8), du: 8n * abs(minus7 + plus8 / plus) };
}

/** The curve's output W (before the fee) for `amountIn`. */
export function flatCurveGross(s: FlatSides, amountIn: bigint): bigint {
  const x = s.inPool * s.inMultiplier;
  const y = s.outPool * s.outMultiplier;
  const dx = amountIn * s.inMultiplier;
  const { u } = util(x, y);
  let dy = 0n;
  for (let n = 0; n < NEWTON_ROUNDS; n++) {
    const next = util(x + dx, abs(y - dy));
    dy += abs(ediv(next.u - u, next.du));
  }
  return dy / s.outMultiplier;
}

/** What the trader receives for `amountIn`: the curve's output less the fee. */
export const flatCurveOut = (s: FlatSides, amountIn: bigint, fee: FeeRatio): bigint => (fee.numerator * flatCurveGross(s, amountIn)) / fee.denominator;
