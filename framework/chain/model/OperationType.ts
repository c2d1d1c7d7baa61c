/**
 * Operation `type` values. The first list is the interface spec's (plus tzindex's `transfer_ticket`);
 * the second holds names this project chose for node kinds the spec has no type for
 * (see docs/operations.md). A kind the normalizer does not know keeps its raw kind as type.
 */
export const SPEC_OPERATION_TYPES = [
  'activation',
  'double_baking',
  'double_endorsement',
  'double_preendorsement',
  'nonce_revelation',
  'transaction',
  'origination',
  'delegation',
  'reveal',
  'endorsement',
  'preendorsement',
  'proposal',
  'ballot',
  'register_constant',
  'deposits_limit',
  'bake',
  'unfreeze',
  'seed_slash',
  'airdrop',
  'invoice',
  'migration',
  'subsidy',
  'deposit',
  'reward',
  'bonus',
  'rollup_origination',
  'rollup_transaction',
  'vdf_revelation',
  'increase_paid_storage',
  'drain_delegate',
  'update_consensus_key',
  'transfer_ticket',
] as const;

export const EXTRA_OPERATION_TYPES = [
  'update_companion_key',
  'dal_publish',
  'dal_attestation',
  'dal_entrapment',
  'event',
  'stake',
  'unstake',
  'finalize_unstake',
  'set_delegate_parameters',
] as const;

export type OperationType = (typeof SPEC_OPERATION_TYPES)[number] | (typeof EXTRA_OPERATION_TYPES)[number];

/** What clients call an operation of a kind this build does not know (its node kind is kept apart). */
export const UNKNOWN_OPERATION_TYPE = 'unknown';

// Our extra types that clients know under a spec type (the TzPro SDK's OpType decodes no other; the
// node's kind tells them apart): staking pseudo-operations are transactions (their entrypoint says
// which), DAL kinds rollup transactions as in the original, the companion key a consensus key.
const CLIENT_TYPE_OF_EXTRA: Readonly<
  Record<Exclude<(typeof EXTRA_OPERATION_TYPES)[number], 'event'>, (typeof SPEC_OPERATION_TYPES)[number]>
> = {
  stake: 'transaction',
  unstake: 'transaction',
  finalize_unstake: 'transaction',
  set_delegate_parameters: 'transaction',
  dal_publish: 'rollup_transaction',
  dal_attestation: 'rollup_transaction',
  dal_entrapment: 'rollup_transaction',
  update_companion_key: 'update_consensus_key',
};

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...SPEC_OPERATION_TYPES, ...EXTRA_OPERATION_TYPES]);

/**
 * The type clients see for a normalized operation type, in `/tables/op` and on `/stream`: a spec type
 * (or `event`), and `unknown` for a kind newer than this build (whose normalized type is its raw kind).
 */
export function clientOperationType(type: string): string {
  if (!KNOWN_TYPES.has(type)) return UNKNOWN_OPERATION_TYPE;
  return (CLIENT_TYPE_OF_EXTRA as Record<string, string>)[type] ?? type;
}

/** Every value `clientOperationType` gives. */
export const CLIENT_OPERATION_TYPES: ReadonlySet<string> = new Set(
  [...KNOWN_TYPES].map(clientOperationType).concat(UNKNOWN_OPERATION_TYPE),
);

/** Validation pass a kind belongs to: 0 consensus, 1 voting, 2 anonymous, 3 manager. */
export type OperationPass = 0 | 1 | 2 | 3;

export interface KindInfo {
  type: OperationType;
  pass: OperationPass;
  isRollup?: boolean;
}

const consensus = (type: OperationType): KindInfo => ({ type, pass: 0 });
const voting = (type: OperationType): KindInfo => ({ type, pass: 1 });
const anonymous = (type: OperationType): KindInfo => ({ type, pass: 2 });
const manager = (type: OperationType): KindInfo => ({ type, pass: 3 });
const rollup = (type: OperationType): KindInfo => ({ type, pass: 3, isRollup: true });

function rollupKinds(prefix: string, origination: string, others: readonly string[]): Record<string, KindInfo> {
  const out: Record<string, KindInfo> = { [`${prefix}_${origination}`]: rollup('rollup_origination') };
  for (const name of others) out[`${prefix}_${name}`] = rollup('rollup_transaction');
  return out;
}

/** Every node operation kind from Athens to Ushuaia (including feature-flagged ones) → type. */
export const OPERATION_KINDS: Readonly<Record<string, KindInfo>> = {
  endorsement: consensus('endorsement'),
  endorsement_with_slot: consensus('endorsement'),
  endorsement_with_dal: consensus('endorsement'),
  attestation: consensus('endorsement'),
  attestation_with_dal: consensus('endorsement'),
  attestations_aggregate: consensus('endorsement'),
  preendorsement: consensus('preendorsement'),
  preattestation: consensus('preendorsement'),
  preattestations_aggregate: consensus('preendorsement'),
  dal_slot_availability: consensus('dal_attestation'),
  dal_attestation: consensus('dal_attestation'),

  proposals: voting('proposal'),
  ballot: voting('ballot'),

  seed_nonce_revelation: anonymous('nonce_revelation'),
  double_baking_evidence: anonymous('double_baking'),
  double_endorsement_evidence: anonymous('double_endorsement'),
  double_attestation_evidence: anonymous('double_endorsement'),
  double_preendorsement_evidence: anonymous('double_preendorsement'),
  double_preattestation_evidence: anonymous('double_preendorsement'),
  // Refined from the denounced operations by the normalizer (attestation vs preattestation).
  double_consensus_operation_evidence: anonymous('double_endorsement'),
  activate_account: anonymous('activation'),
  vdf_revelation: anonymous('vdf_revelation'),
  drain_delegate: anonymous('drain_delegate'),
  dal_entrapment_evidence: anonymous('dal_entrapment'),

  reveal: manager('reveal'),
  transaction: manager('transaction'),
  origination: manager('origination'),
  delegation: manager('delegation'),
  register_global_constant: manager('register_constant'),
  set_deposits_limit: manager('deposits_limit'),
  increase_paid_storage: manager('increase_paid_storage'),
  update_consensus_key: manager('update_consensus_key'),
  update_companion_key: manager('update_companion_key'),
  transfer_ticket: manager('transfer_ticket'),
  dal_publish_slot_header: manager('dal_publish'),
  dal_publish_commitment: manager('dal_publish'),
  ...rollupKinds('tx_rollup', 'origination', [
    'submit_batch',
    'commit',
    'return_bond',
    'finalize_commitment',
    'remove_commitment',
    'rejection',
    'dispatch_tickets',
  ]),
  ...rollupKinds('sc_rollup', 'originate', [
    'add_messages',
    'cement',
    'publish',
    'refute',
    'timeout',
    'execute_outbox_message',
    'recover_bond',
    'dal_slot_subscribe',
  ]),
  ...rollupKinds('smart_rollup', 'originate', [
    'add_messages',
    'cement',
    'publish',
    'refute',
    'timeout',
    'execute_outbox_message',
    'recover_bond',
  ]),
  ...rollupKinds('zk_rollup', 'origination', ['publish', 'update']),
};

/** Kinds that can appear in `internal_operation_results` (Athens allowed any manager kind). */
export const INTERNAL_ONLY_KINDS: Readonly<Record<string, KindInfo>> = { event: manager('event') };

/** Transactions to an implicit account with one of these entrypoints are staking pseudo-operations (Oxford+). */
export const STAKING_ENTRYPOINTS: ReadonlySet<string> = new Set([
  'stake',
  'unstake',
  'finalize_unstake',
  'set_delegate_parameters',
]);
