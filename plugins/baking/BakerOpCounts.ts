import type { NormalizedOperation } from '../../framework';

/** Income columns counting a baker's operations (the SDK's BakerStatistics counters); `n_baker_ops` is their sum. */
export const BAKER_OP_COLUMNS = [
  'n_baker_ops',
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
export type BakerOpColumn = (typeof BAKER_OP_COLUMNS)[number];

/** The counter columns an operation adds to (one count each). */
export type BakerOpColumnCounted = Exclude<BakerOpColumn, 'n_baker_ops'>;

/** Manager operations only bakers can send successfully, by type. */
const MANAGER_COUNTERS: Readonly<Record<string, BakerOpColumnCounted>> = {
  deposits_limit: 'n_set_limits',
  update_consensus_key: 'n_update_consensus_key',
  update_companion_key: 'n_update_consensus_key',
};

/**
 * The baker counts of one operation, as the original counts them (one count per baker involved):
 * (pre)attestations for their delegate (every aggregate member), proposals and ballots for their
 * sender, seed nonce and VDF revelations for the block's proposer (`includer`: revelations have no
 * signer), a denunciation for its accuser and (double signing) its offender, a drain for the drained
 * baker, and successful deposit-limit and consensus/companion key updates for their sender. Called
 * per operation from the block handler's one walk over the block.
 */
export function countBakerOp(
  op: NormalizedOperation,
  includer: string | undefined,
  add: (baker: string, column: BakerOpColumnCounted) => void,
): void {
  if (op.isInternal || op.isEvent) return;
  const signed = consensusOrVote(op);
  if (signed) return to(add, op.consensus?.delegate ?? op.sender, signed);
  if (op.type === 'nonce_revelation' || op.type === 'vdf_revelation') to(add, includer, 'n_nonce_revelations');
  else if (
    op.type === 'double_baking' ||
    op.type === 'double_endorsement' ||
    op.type === 'double_preendorsement' ||
    op.type === 'dal_entrapment'
  ) {
    to(add, op.accuser ?? op.sender, 'n_accusations');
    if (op.type !== 'dal_entrapment')
      to(add, op.offender, op.type === 'double_baking' ? 'n_double_bakings' : 'n_double_endorsements');
  } else if (op.type === 'drain_delegate') to(add, op.sender, 'n_drain_delegate');
  else if (MANAGER_COUNTERS[op.type] && op.isSuccess) to(add, op.sender, MANAGER_COUNTERS[op.type]);
}

function to(
  add: (baker: string, column: BakerOpColumnCounted) => void,
  baker: string | undefined,
  column: BakerOpColumnCounted,
): void {
  if (baker) add(baker, column);
}

/** The counter of a signed consensus operation or vote (counted for its signer). */
function consensusOrVote(op: NormalizedOperation): BakerOpColumnCounted | undefined {
  if (op.type === 'endorsement') return op.isSuccess ? 'n_endorsements' : undefined;
  if (op.type === 'preendorsement') return op.isSuccess ? 'n_preendorsements' : undefined;
  if (op.type === 'proposal') return 'n_proposals';
  if (op.type === 'ballot') return 'n_ballots';
  return undefined;
}
