/**
 * The oracle for Plenty's stable-swap prices, written from the invariant the contracts keep:
 * u(x, y) = (x+y)⁸ − (x−y)⁸, solved for the output by the same five Newton rounds (integer division)
 * the pool runs. Tests compare what an adapter reports with it; it is not a pool simulator.
 */
function util(x: bigint, y: bigint): { u: bigint; du: bigint } {
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const plus = x + y;
  const minus = x - y;
  return { u: abs(plus ** 8n - minus ** 8n), du: 8n * abs(minus ** 7n + plus ** 7n) };
}

/** The curve's output dy for dx in, from reserves x (input side) and y (output side), before the fee. */
export function flatCurveOut(x: bigint, y: bigint, dx: bigint, rounds = 5): bigint {
  const { u } = util(x, y);
  let dy = 0n;
  for (let i = 0; i < rounds; i++) {
    const next = util(x + dx, y > dy ? y - dy : dy - y);
    const gap = next.u > u ? next.u - u : u - next.u;
    dy += gap / next.du;
  }
  return dy;
}

/** Q48 fixed point: ctez's `get_target` answers the ctez price in tez times 2⁴⁸. */
export const Q48 = 48n;
