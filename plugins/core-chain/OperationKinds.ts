import { clientOperationType, UNKNOWN_OPERATION_TYPE } from '../../framework';
import type { FlowRow, OpRow } from './tables.generated';

/**
 * How normalized operation types land in core-chain's tables: the `op.type` label (the type clients
 * know, as the stream sends it: clientOperationType) and the `flow.operation` label.
 */
export class OperationKinds {
  constructor(private readonly opTypes: ReadonlySet<string>) {
    if (!opTypes.has(UNKNOWN_OPERATION_TYPE))
      throw new Error(`core-chain: the op table's type enum needs the value '${UNKNOWN_OPERATION_TYPE}'`);
  }

  /**
   * The op table label of a normalized type. A kind the catalog has no label for (a protocol newer
   * than this build) is stored generically as `unknown`, its node kind kept in `data`.
   */
  opType(normalizedType: string): { label: OpRow['type']; known: boolean } {
    const label = clientOperationType(normalizedType);
    return label !== UNKNOWN_OPERATION_TYPE && this.isLabel(label)
      ? { label, known: true }
      : { label: UNKNOWN_OPERATION_TYPE, known: false };
  }

  /** The catalog's enum, which the generated OpRow type was made from: a label in it is one of the type's. */
  private isLabel(label: string): label is OpRow['type'] {
    return this.opTypes.has(label);
  }
}

const FLOW_OPERATION_BY_TYPE: Readonly<Record<string, FlowRow['operation']>> = {
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
export function flowOperation(normalizedType: string): FlowRow['operation'] {
  return FLOW_OPERATION_BY_TYPE[normalizedType] ?? 'transaction';
}
