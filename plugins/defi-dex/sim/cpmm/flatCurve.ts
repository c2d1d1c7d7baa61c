/**
 * The flat curve u(x, y) = (x+y)⁸ − (x−y)⁸ of the stable-swap pools the sandbox simulates (Youves flat
 * CFMMs, Plenty stable pools), in one place: both contracts solve it for the output with five integer
 * Newton steps from 0 (each step rounded down, so the output is an underestimate). Youves:
 * youves-com/youves-smart-contract contracts/swap/fa12_flat_cfmm.mligo (`util`, `newton`, `n = 5`) at
 * 750af577d178a5778d5b49ce9127a94913c75e23. Simulators only: adapters read amounts from what moved.
 */
const NEWTON_STEPS = 5;

/** u and its slope in y, 8·((x−y)⁷ + (x+y)⁷), both as the contracts keep them (non-negative). */
function invariant(x: bigint, y: bigint): [value: bigint, slope: bigint] {
  const [s, d] = [x + y, x - y];
  const v = s ** 8n - d ** 8n;
  const slope = 8n * (d ** 7n + s ** 7n);
  return [v < 0n ? -v : v, slope < 0n ? -slope : slope];
}

/** The output for `dx` in, from the reserves on the input (`x`) and output (`y`) sides, before any fee. */
export function flatCurveOutput(x: bigint, y: bigint, dx: bigint): bigint {
  const [k] = invariant(x, y);
  let dy = 0n;
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const [v, slope] = invariant(x + dx, y > dy ? y - dy : dy - y);
    dy += (v > k ? v - k : k - v) / slope;
  }
  return dy;
}
