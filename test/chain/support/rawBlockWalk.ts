import type { Json } from './Json';

/**
 * Expected per-block figures computed straight from the node JSON with a deliberately simple walk,
 * independent of the normalizer's code paths (its own kind table, its own gas/burn rules).
 */

// Spec type per node kind, written out independently of framework/chain/model/OperationType.ts.
const TYPE_BY_KIND: Record<string, string> = {};
const groups: Record<string, string[]> = {
  endorsement: [
    'endorsement',
    'endorsement_with_slot',
    'attestation',
    'attestation_with_dal',
    'attestations_aggregate',
  ],
  preendorsement: ['preendorsement', 'preattestation', 'preattestations_aggregate'],
  proposal: ['proposals'],
  ballot: ['ballot'],
  nonce_revelation: ['seed_nonce_revelation'],
  double_baking: ['double_baking_evidence'],
  double_endorsement: ['double_endorsement_evidence', 'double_attestation_evidence'],
  double_preendorsement: ['double_preendorsement_evidence', 'double_preattestation_evidence'],
  activation: ['activate_account'],
  vdf_revelation: ['vdf_revelation'],
  drain_delegate: ['drain_delegate'],
  dal_entrapment: ['dal_entrapment_evidence'],
  reveal: ['reveal'],
  transaction: ['transaction'],
  origination: ['origination'],
  delegation: ['delegation'],
  register_constant: ['register_global_constant'],
  deposits_limit: ['set_deposits_limit'],
  increase_paid_storage: ['increase_paid_storage'],
  update_consensus_key: ['update_consensus_key'],
  update_companion_key: ['update_companion_key'],
  transfer_ticket: ['transfer_ticket'],
  dal_publish: ['dal_publish_commitment', 'dal_publish_slot_header'],
  event: ['event'],
  rollup_origination: [
    'smart_rollup_originate',
    'tx_rollup_origination',
    'sc_rollup_originate',
    'zk_rollup_origination',
  ],
};
for (const [type, kinds] of Object.entries(groups)) for (const kind of kinds) TYPE_BY_KIND[kind] = type;

function typeOf(kind: string): string {
  if (TYPE_BY_KIND[kind]) return TYPE_BY_KIND[kind];
  if (/^(smart|tx|sc|zk)_rollup_/.test(kind)) return 'rollup_transaction';
  if (kind === 'double_consensus_operation_evidence') return 'double_endorsement';
  return kind;
}

export interface Expected {
  typeCounts: Record<string, number>;
  fee: bigint;
  volume: bigint;
  gasUsed: bigint;
  burned: bigint;
  contractCalls: number;
  rows: number;
}

const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(v as string));

function gasOf(result: Json): bigint {
  if (result.consumed_gas !== undefined) return big(result.consumed_gas);
  if (result.consumed_milligas !== undefined) return (big(result.consumed_milligas) + 999n) / 1000n;
  return 0n;
}

/** Burn of an applied result: what `burned` sinks received, else what the debits exceed the credits by. */
function burnOf(result: Json): bigint {
  if (result.status !== undefined && result.status !== 'applied') return 0n;
  let burned = 0n;
  let net = 0n;
  for (const u of result.balance_updates ?? []) {
    if (u.kind === 'staking') continue;
    if (u.kind === 'burned') burned += big(u.change);
    net += big(u.change);
  }
  const total = burned - net;
  return total > 0n ? total : 0n;
}

function positiveCredits(updates: Json[] | undefined, kinds: string[]): bigint {
  let sum = 0n;
  for (const u of updates ?? []) if (kinds.includes(u.kind) && big(u.change) > 0n) sum += big(u.change);
  return sum;
}

export function expectedFromGroups(groupsList: Json[], implicit: Json[] = []): Expected {
  const e: Expected = { typeCounts: {}, fee: 0n, volume: 0n, gasUsed: 0n, burned: 0n, contractCalls: 0, rows: 0 };
  const count = (type: string, n = 1): void => {
    e.typeCounts[type] = (e.typeCounts[type] ?? 0) + n;
    e.rows += n;
  };
  const manager = (op: Json, result: Json | undefined): void => {
    const applied = result?.status === 'applied';
    let type = typeOf(op.kind);
    const entrypoint = op.parameters?.entrypoint;
    if (
      op.kind === 'transaction' &&
      /^tz/.test(op.destination ?? '') &&
      ['stake', 'unstake', 'finalize_unstake', 'set_delegate_parameters'].includes(entrypoint)
    ) {
      type = entrypoint;
    }
    count(type);
    if (op.kind === 'transaction' && String(op.destination ?? '').startsWith('KT1')) e.contractCalls++;
    if (applied && op.kind === 'transaction') e.volume += big(op.amount);
    if (applied && op.kind === 'origination') e.volume += big(op.balance);
    if (result) {
      e.gasUsed += gasOf(result);
      e.burned += burnOf(result);
    }
  };
  for (const group of groupsList) {
    for (const content of group.contents ?? []) {
      const meta = typeof content.metadata === 'object' ? content.metadata : undefined;
      if (content.kind === 'attestations_aggregate' || content.kind === 'preattestations_aggregate') {
        count(typeOf(content.kind), content.committee.length);
        continue;
      }
      if (content.fee !== undefined) {
        e.fee += big(content.fee);
        manager(content, meta?.operation_result);
        for (const internal of meta?.internal_operation_results ?? []) manager(internal, internal.result);
        continue;
      }
      count(typeOf(content.kind));
      if (/^double_/.test(content.kind)) e.volume += positiveCredits(meta?.balance_updates, ['contract', 'freezer']);
      if (content.kind === 'activate_account') e.volume += positiveCredits(meta?.balance_updates, ['contract']);
      if (content.kind === 'drain_delegate') {
        const toDestination = (meta?.balance_updates ?? []).filter((u: Json) => u.contract === content.destination);
        e.volume += positiveCredits(toDestination, ['contract']);
      }
    }
  }
  for (const result of implicit) {
    count((result.balance_updates ?? []).some((u: Json) => u.origin === 'subsidy') ? 'subsidy' : 'migration');
    e.gasUsed += gasOf(result);
    e.burned += burnOf(result);
    e.volume += positiveCredits(result.balance_updates, ['contract']);
  }
  return e;
}

export function expectedFromBlock(block: Json): Expected {
  return expectedFromGroups((block.operations ?? []).flat(), block.metadata?.implicit_operations_results ?? []);
}
