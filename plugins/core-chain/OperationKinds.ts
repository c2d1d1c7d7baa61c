/**
 * How normalized operation types land in core-chain's tables: the `op.type` label and the
 * `flow.operation` label. The op table's labels come from the catalog (its `type` enum), so a label
 * added there is stored without a code change.
 */

// Normalized types the op table spells with a type the TzPro SDK knows (its OpType cannot decode
// others; the node's kind stays in the `kind` column): staking pseudo-operations are transactions
// (their entrypoint tells them apart), DAL kinds are rollup transactions as in the original, the
// companion key update is a consensus-key update.
const OP_TYPE_RENAMES: Readonly<Record<string, string>> = {
  stake: 'transaction',
  unstake: 'transaction',
  finalize_unstake: 'transaction',
  set_delegate_parameters: 'transaction',
  dal_publish: 'rollup_transaction',
  dal_attestation: 'rollup_transaction',
  dal_entrapment: 'rollup_transaction',
  update_companion_key: 'update_consensus_key',
};

/** The op table's spelling of a normalized type. */
export function opTableLabel(normalizedType: string): string {
  return OP_TYPE_RENAMES[normalizedType] ?? normalizedType;
}

export const UNKNOWN_TYPE = 'unknown';

export class OperationKinds {
  constructor(private readonly opTypes: ReadonlySet<string>) {
    if (!opTypes.has(UNKNOWN_TYPE)) throw new Error(`core-chain: the op table's type enum needs the value '${UNKNOWN_TYPE}'`);
  }

  /**
   * The op table label of a normalized type. A kind the catalog has no label for (a protocol newer
   * than this build) is stored generically as `unknown`, its node kind kept in `data`.
   */
  opType(normalizedType: string): { label: string; known: boolean } {
    const label = opTableLabel(normalizedType);
    return this.opTypes.has(label) ? { label, known: true } : { label: UNKNOWN_TYPE, known: false };
  }
}

const FLOW_OPERATION_BY_TYPE: Readonly<Record<string, string>> = {
  endorsement: 'endorsement',
  preendorsement: 'endorsement',
  transaction: 'transaction',
  stake: 'transaction',
  unstake: 'transaction',
  finalize_unstake: 'transaction',
  set_delegate_parameters: 'transaction',
  origination: 'origination',
  delegation: 'delegation',
  reveal: 'reveal',
  nonce_revelation: 'nonce_revelation',
  vdf_revelation: 'nonce_revelation',
  activation: 'activation',
  double_baking: 'penalty',
  double_endorsement: 'penalty',
  double_preendorsement: 'penalty',
  dal_entrapment: 'penalty',
  register_constant: 'register_constant',
  deposits_limit: 'deposits_limit',
  rollup_origination: 'rollup_origination',
  rollup_transaction: 'rollup_transaction',
  increase_paid_storage: 'pay_storage',
  update_consensus_key: 'update_consensus_key',
  update_companion_key: 'update_consensus_key',
  drain_delegate: 'drain',
  transfer_ticket: 'transfer_ticket',
  subsidy: 'subsidy',
  migration: 'invoice',
};

/** `flow.operation` for balance changes of an operation row; other manager kinds count as transactions. */
export function flowOperation(normalizedType: string): string {
  return FLOW_OPERATION_BY_TYPE[normalizedType] ?? 'transaction';
}
