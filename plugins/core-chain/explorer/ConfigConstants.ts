import { isRecord } from '../../../framework';

/** The protocol constants the config object shows; null when the node's constants do not give them. */
export interface ConfigConstants {
  minimal_stake: number | null;
  preserved_cycles: number | null;
  blocks_per_cycle: number | null;
  minimal_block_delay: number | null;
  delay_increment_per_round?: number;
}

/** The node's constants as the protocol table keeps them (JSON): an object, else none. */
export function nodeConstants(raw: unknown): Readonly<Record<string, unknown>> {
  return isRecord(raw) ? raw : {};
}

/**
 * The config object's protocol constants, read out of the node's `/context/constants` as the protocol
 * table keeps them. Names changed across protocols: Emmy's `tokens_per_roll` and `time_between_blocks`,
 * Paris's `consensus_rights_delay` in place of `preserved_cycles`. Unknown ones are null.
 */
export function configConstants(raw: unknown): ConfigConstants {
  const c = nodeConstants(raw);
  const num = (v: unknown): number | null =>
    typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : null;
  const tez = (v: unknown): number | null => {
    const mutez = num(v);
    return mutez === null ? null : mutez / 1e6;
  };
  const firstOf = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined);
  const out: ConfigConstants = {
    minimal_stake: tez(c.minimal_stake ?? c.tokens_per_roll),
    preserved_cycles: num(c.preserved_cycles ?? c.consensus_rights_delay),
    blocks_per_cycle: num(c.blocks_per_cycle),
    minimal_block_delay: num(c.minimal_block_delay ?? firstOf(c.time_between_blocks)),
  };
  const increment = num(c.delay_increment_per_round);
  if (increment !== null) out.delay_increment_per_round = increment;
  return out;
}
