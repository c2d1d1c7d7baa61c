/**
 * Cycles between a stake snapshot's cycle and the cycle whose rights it gives, from the constants of
 * the protocol that drew them: Emmy (constants with `blocks_per_roll_snapshot`) picks at a cycle's
 * end from the cycle before it, for cycle + preserved_cycles + 1, so + 2; Tenderbake picks from the
 * cycle ending (+ 1), and from Paris on the delay is `consensus_rights_delay`. Undefined when the
 * constants do not tell the delay. One place, for core-chain's cycle object and the baking plugin.
 */
export function snapshotLag(constants: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const delay = constants?.consensus_rights_delay ?? constants?.preserved_cycles;
  if (delay === undefined || delay === null) return undefined;
  return Number(delay) + (constants?.blocks_per_roll_snapshot !== undefined ? 2 : 1);
}
