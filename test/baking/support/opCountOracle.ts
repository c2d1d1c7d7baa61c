import type { Json } from '../../chain/support/Json';

/** The baker operation counters the income rows keep (BakerStatistics), without their sum `n_baker_ops`. */
export const OP_COUNTERS = [
  'n_proposals',
  'n_ballots',
  'n_endorsements',
  'n_preendorsements',
  'n_nonce_revelations',
  'n_double_bakings',
  'n_double_endorsements',
  'n_accusations',
  'n_set_limits',
  'n_update_consensus_key',
  'n_drain_delegate',
] as const;

const ATTESTATIONS = new Set([
  'endorsement',
  'endorsement_with_slot',
  'endorsement_with_dal',
  'attestation',
  'attestation_with_dal',
  'attestations_aggregate',
]);
const PREATTESTATIONS = new Set(['preendorsement', 'preattestation', 'preattestations_aggregate']);
const DOUBLE_BAKING = new Set(['double_baking_evidence']);
const DOUBLE_SIGNING = new Set([
  'double_endorsement_evidence',
  'double_attestation_evidence',
  'double_preendorsement_evidence',
  'double_preattestation_evidence',
  'double_consensus_operation_evidence',
]);
const KEY_UPDATES: Record<string, string> = {
  set_deposits_limit: 'n_set_limits',
  update_consensus_key: 'n_update_consensus_key',
  update_companion_key: 'n_update_consensus_key',
};

/**
 * The test's own count, from the raw blocks, of each baker's operations per `cycle_address` (and
 * `n_baker_ops`, their sum): (pre)attestations for each signer or aggregate committee member, votes
 * for their source, revelations for the block's proposer, denunciations for the rewarded delegate
 * (the includer before receipts named it) and the punished one, drains for the drained delegate,
 * applied limit/key updates for their source.
 */
export function oracleOpCounts(blocks: readonly Json[]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const b of blocks) {
    if (!b.metadata || b.header.level === 0) continue;
    const cycle: number = (b.metadata.level_info ?? b.metadata.level).cycle;
    const count = (who: string | undefined, column: string): void => {
      if (!who) return;
      const row = out.get(`${cycle}_${who}`) ?? out.set(`${cycle}_${who}`, { n_baker_ops: 0 }).get(`${cycle}_${who}`)!;
      row[column] = (row[column] ?? 0) + 1;
      row.n_baker_ops++;
    };
    for (const pass of b.operations)
      for (const op of pass)
        for (const c of op.contents) {
          const members = (): string[] =>
            c.kind.endsWith('aggregate')
              ? (c.metadata?.committee ?? []).map((m: Json) => m.delegate)
              : [c.metadata?.delegate];
          if (ATTESTATIONS.has(c.kind)) for (const d of members()) count(d, 'n_endorsements');
          else if (PREATTESTATIONS.has(c.kind)) for (const d of members()) count(d, 'n_preendorsements');
          else if (c.kind === 'proposals') count(c.source, 'n_proposals');
          else if (c.kind === 'ballot') count(c.source, 'n_ballots');
          else if (c.kind === 'seed_nonce_revelation' || c.kind === 'vdf_revelation')
            count(b.metadata.proposer ?? b.metadata.baker, 'n_nonce_revelations');
          else if (DOUBLE_BAKING.has(c.kind) || DOUBLE_SIGNING.has(c.kind)) {
            // Receipts name both since Oxford/Seoul; before, the includer is rewarded and the offender's deposits are
            // slashed.
            const slashed = (c.metadata?.balance_updates ?? []).find(
              (u: Json) => u.kind === 'freezer' && BigInt(u.change) < 0n,
            );
            count(c.metadata?.rewarded_delegate ?? b.metadata.proposer ?? b.metadata.baker, 'n_accusations');
            count(
              c.metadata?.punished_delegate ??
                c.metadata?.forbidden_delegate ??
                slashed?.delegate ??
                slashed?.staker?.delegate,
              DOUBLE_BAKING.has(c.kind) ? 'n_double_bakings' : 'n_double_endorsements',
            );
          } else if (c.kind === 'drain_delegate') count(c.delegate, 'n_drain_delegate');
          else if (KEY_UPDATES[c.kind] && c.metadata?.operation_result?.status === 'applied')
            count(c.source, KEY_UPDATES[c.kind]);
        }
  }
  return out;
}
