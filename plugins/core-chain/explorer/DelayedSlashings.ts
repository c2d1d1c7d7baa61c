/**
 * Why: from Oxford on a denunciation's figures (accuser reward, offender losses) come with its
 * slashing at a cycle end, cycles after the op row was written (DenunciationFigures sets them then).
 * Until that block is indexed the row shows zeros, so an answer holding one is not final at its height.
 */

const TYPES = ['double_baking', 'double_endorsement', 'double_preendorsement'];
const AMOUNTS = ['volume', 'fee', 'reward', 'deposit'];

/** An applied denunciation (op object) that shows no amounts: Oxford+, not slashed yet. */
const unslashed = (r: Readonly<Record<string, unknown>>): boolean =>
  typeof r.type === 'string' &&
  TYPES.includes(r.type) &&
  r.is_success === true &&
  AMOUNTS.every((k) => Number(r[k] ?? 0) === 0);

/**
 * Whether operation objects hold a denunciation whose figures may still come (its cycle end is not
 * indexed): such an answer is not fixed at its height, whatever its depth.
 */
export const awaitsSlashing = (objects: readonly Record<string, unknown>[]): boolean => objects.some(unslashed);
