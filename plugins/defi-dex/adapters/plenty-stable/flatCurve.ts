/**
 * Plenty's stable-swap curve for the sandbox pools: the invariant (x+y)⁸ − (x−y)⁸ is kept by the
 * contracts with five Newton steps in integers, so the simulated pools pay what the real ones would.
 */
function invariant(x: bigint, y: bigint): [value: bigint, slope: bigint] {
  const [s, d] = [x + y, x - y];
  const v = s ** 8n - d ** 8n;
  const slope = 8n * (d ** 7n + s ** 7n);
  return [v < 0n ? -v : v, slope < 0n ? -slope : slope];
}

/** The output for `dx` in, from the reserves on the input (`x`) and output (`y`) sides, before the fee. */
export function curveOutput(x: bigint, y: bigint, dx: bigint): bigint {
  const [k] = invariant(x, y);
  let dy = 0n;
  for (let step = 0; step < 5; step++) {
    const [v, slope] = invariant(x + dx, y > dy ? y - dy : dy - y);
    dy += (v > k ? v - k : k - v) / slope;
  }
  return dy;
}
