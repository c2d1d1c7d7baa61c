import type { Json } from '../../chain/support/Json';

/**
 * What the explorer should say about each operation row of a block, computed straight from the node
 * JSON (own kind table, own field rules), in the node's order: groups by validation pass, contents,
 * each followed by its internal operations; aggregated attestations one row per committee member.
 */
export interface ExpectedOperation {
  hash: string;
  type: string;
  /** Validation pass: the index of the block's operation list holding the group. */
  opL: number;
  status: string;
  isInternal: boolean;
  isContract: boolean;
  /** Undefined where the row's amounts come from receipts this walk does not read (denunciations, drains). */
  fee?: bigint;
  volume?: bigint;
  gasUsed: bigint;
  gasLimit: bigint;
  storageLimit: bigint;
  storagePaid: bigint;
  counter?: number;
  sender?: string;
  receiver?: string;
  /** Internal operations: the signer of the outer operation. */
  source?: string;
  baker?: string;
  creator?: string;
  accuser?: string;
  offender?: string;
  entrypoint?: string;
  /** Contract calls: the argument as the node shows it. */
  parameters?: unknown;
  /** transfer_ticket: the ticket it sends, as the node's fields name it. */
  ticket?: Record<string, unknown>;
  /** Emmy endorsements: the endorsed slots. */
  slots?: number[];
  revealedKey?: string;
  /** Originations: the script sent; register_constant: the value. */
  script?: unknown;
  value?: unknown;
  /** vdf_revelation: solution and proof. */
  solution?: string[];
  /** nonce_revelation: the level whose nonce is revealed. */
  revealedLevel?: number;
  bigMapDiff: ExpectedBigMapChange[];
  /** Whether the node reported a storage for the result (contract calls). */
  storage?: unknown;
  /** (Pre)endorsements: the consensus power the receipt reports (slot count for Emmy). */
  power?: number;
  /** set_deposits_limit: the limit in mutez, null when removed. */
  limit?: bigint | null;
  /** Rollup operations: the inbox or commitment level they name. */
  level?: number;
  /** Applied contract events: those its internal operations emitted (signed rows) or its own (`event` rows). */
  events?: ExpectedEvent[];
  /** Ticket balance changes its applied receipt lists. */
  ticketUpdates?: ExpectedTicketUpdate[];
}

export interface ExpectedEvent {
  contract: string;
  type: unknown;
  payload?: unknown;
  tag?: string;
}

export interface ExpectedTicketUpdate {
  ticketer: string;
  type: unknown;
  content: unknown;
  account: string;
  amount: bigint;
}

type RowFields = Omit<ExpectedOperation, 'opL'>;

export interface ExpectedBigMapChange {
  action: string;
  bigmap_id: number;
  key?: unknown;
  value?: unknown;
}

// The op table's label per node kind (the TzPro SDK's names), written out here rather than taken from the normalizer.
const LABELS: Record<string, string> = {
  endorsement: 'endorsement',
  endorsement_with_slot: 'endorsement',
  endorsement_with_dal: 'endorsement',
  attestation: 'endorsement',
  attestation_with_dal: 'endorsement',
  attestations_aggregate: 'endorsement',
  preendorsement: 'preendorsement',
  preattestation: 'preendorsement',
  preattestations_aggregate: 'preendorsement',
  proposals: 'proposal',
  ballot: 'ballot',
  seed_nonce_revelation: 'nonce_revelation',
  double_baking_evidence: 'double_baking',
  double_endorsement_evidence: 'double_endorsement',
  double_attestation_evidence: 'double_endorsement',
  double_preendorsement_evidence: 'double_preendorsement',
  double_preattestation_evidence: 'double_preendorsement',
  activate_account: 'activation',
  vdf_revelation: 'vdf_revelation',
  drain_delegate: 'drain_delegate',
  reveal: 'reveal',
  transaction: 'transaction',
  origination: 'origination',
  delegation: 'delegation',
  register_global_constant: 'register_constant',
  set_deposits_limit: 'deposits_limit',
  increase_paid_storage: 'increase_paid_storage',
  update_consensus_key: 'update_consensus_key',
  update_companion_key: 'update_consensus_key',
  dal_publish_slot_header: 'rollup_transaction',
  dal_publish_commitment: 'rollup_transaction',
  dal_slot_availability: 'rollup_transaction',
  dal_attestation: 'rollup_transaction',
  dal_entrapment_evidence: 'rollup_transaction',
  transfer_ticket: 'transfer_ticket',
  event: 'event',
  smart_rollup_originate: 'rollup_origination',
};

export function label(kind: string): string {
  if (LABELS[kind]) return LABELS[kind];
  if (/^(smart|sc|tx|zk)_rollup_/.test(kind)) return 'rollup_transaction';
  return kind;
}

const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(v as string));

function gas(result: Json | undefined): bigint {
  if (!result) return 0n;
  if (result.consumed_milligas !== undefined) return (big(result.consumed_milligas) + 999n) / 1000n;
  return big(result.consumed_gas);
}

function bigMapChanges(result: Json | undefined): ExpectedBigMapChange[] {
  const out: ExpectedBigMapChange[] = [];
  if (result?.status !== 'applied') return out;
  for (const d of result.lazy_storage_diff ?? []) {
    if (d.kind !== 'big_map') continue;
    const id = Number(d.id);
    if (d.diff.action === 'remove') out.push({ action: 'remove', bigmap_id: id });
    if (d.diff.action === 'alloc' || d.diff.action === 'copy') out.push({ action: d.diff.action, bigmap_id: id });
    for (const u of d.diff.updates ?? [])
      out.push(
        u.value === undefined
          ? { action: 'remove', bigmap_id: id, key: u.key }
          : { action: 'update', bigmap_id: id, key: u.key, value: u.value },
      );
  }
  return out;
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

function eventOf(op: Json): ExpectedEvent {
  return { contract: op.source, type: op.type, payload: op.payload, tag: op.tag };
}

/** Events of a content: its applied internal `event` results; of an internal event: itself. */
function eventsOf(op: Json, internal: boolean): ExpectedEvent[] | undefined {
  if (internal) return op.kind === 'event' && op.result?.status === 'applied' ? [eventOf(op)] : undefined;
  if (op.metadata?.operation_result?.status !== 'applied') return undefined;
  const emitted = (op.metadata.internal_operation_results ?? []).filter(
    (i: Json) => i.kind === 'event' && i.result?.status === 'applied',
  );
  return nonEmpty(emitted.map(eventOf));
}

function ticketUpdatesOf(result: Json | undefined): ExpectedTicketUpdate[] | undefined {
  if (result?.status !== 'applied') return undefined;
  const tickets: Json[] = result.ticket_updates ?? result.ticket_receipt ?? [];
  return nonEmpty(
    tickets.flatMap((t) =>
      t.updates.map((u: Json) => ({
        ticketer: t.ticket_token.ticketer,
        type: t.ticket_token.content_type,
        content: t.ticket_token.content,
        account: u.account,
        amount: BigInt(u.amount),
      })),
    ),
  );
}

/** The level a rollup operation names: its commitment's, its own, or its receipt's. */
function rollupLevel(op: Json, result: Json | undefined): number | undefined {
  if (!/_rollup_/.test(op.kind)) return undefined;
  return op.commitment?.inbox_level ?? op.commitment?.level ?? op.level ?? result?.inbox_level ?? result?.level;
}

/** Consensus power as a receipt states it: a number, or Tallinn's `{slots, baking_power}`. */
export function consensusPower(power: unknown): number | undefined {
  if (typeof power === 'number') return power;
  if (typeof power === 'object' && power !== null && typeof (power as Json).slots === 'number')
    return (power as Json).slots;
  return undefined;
}

function managerRow(hash: string, op: Json, result: Json | undefined, outer: Json | undefined): RowFields {
  const applied = result?.status === 'applied';
  const internal = outer !== undefined;
  const isContract = op.kind === 'transaction' && String(op.destination ?? '').startsWith('KT1');
  return {
    hash,
    type: label(op.kind),
    status: result?.status ?? 'failed',
    isInternal: internal,
    isContract,
    fee: internal ? 0n : big(op.fee),
    volume:
      applied && op.kind === 'transaction'
        ? big(op.amount)
        : applied && op.kind === 'origination'
          ? big(op.balance)
          : 0n,
    gasUsed: gas(result),
    gasLimit: internal ? 0n : big(op.gas_limit),
    storageLimit: internal ? 0n : big(op.storage_limit),
    // increase_paid_storage buys the bytes of its `amount`; the receipt reports no size diff.
    storagePaid: !applied
      ? 0n
      : op.kind === 'increase_paid_storage'
        ? big(op.amount)
        : big(result?.paid_storage_size_diff),
    counter: internal ? undefined : Number(op.counter),
    sender: op.source,
    receiver:
      op.kind === 'origination'
        ? result?.originated_contracts?.[0]
        : op.kind === 'smart_rollup_originate'
          ? result?.address
          : (op.destination ?? op.rollup),
    source: internal ? outer.source : undefined,
    baker: op.kind === 'delegation' || op.kind === 'origination' ? op.delegate : undefined,
    creator: op.kind === 'origination' ? op.source : undefined,
    entrypoint:
      op.kind === 'transfer_ticket'
        ? op.entrypoint
        : (op.parameters?.entrypoint ?? (isContract ? 'default' : undefined)),
    ticket:
      op.kind === 'transfer_ticket'
        ? {
            ticket_ty: op.ticket_ty,
            ticket_contents: op.ticket_contents,
            ticket_ticketer: op.ticket_ticketer,
            ticket_amount: op.ticket_amount,
          }
        : undefined,
    // Before Babylon `parameters` was the bare argument of the only entrypoint.
    parameters: isContract
      ? typeof op.parameters?.entrypoint === 'string'
        ? op.parameters.value
        : op.parameters
      : undefined,
    revealedKey: op.kind === 'reveal' ? op.public_key : undefined,
    script: op.kind === 'origination' && applied ? op.script : undefined,
    value: op.kind === 'register_global_constant' && applied ? op.value : undefined,
    bigMapDiff: bigMapChanges(result),
    storage: applied && isContract ? result?.storage : undefined,
    limit: op.kind === 'set_deposits_limit' ? (op.limit === undefined ? null : BigInt(op.limit)) : undefined,
    level: rollupLevel(op, result),
    events: eventsOf(op, internal),
    ticketUpdates: ticketUpdatesOf(result),
  };
}

function plainRow(hash: string, kind: string, sender: string | undefined): RowFields {
  return {
    hash,
    type: label(kind),
    status: 'applied',
    isInternal: false,
    isContract: false,
    fee: 0n,
    volume: 0n,
    gasUsed: 0n,
    gasLimit: 0n,
    storageLimit: 0n,
    storagePaid: 0n,
    sender,
    bigMapDiff: [],
  };
}

/** Non-manager contents other than consensus ones: who sent them and what the explorer reads out of them. */
function otherRow(hash: string, content: Json, block: Json): RowFields {
  const meta = typeof content.metadata === 'object' ? content.metadata : undefined;
  switch (content.kind) {
    case 'seed_nonce_revelation':
      return { ...plainRow(hash, content.kind, block.metadata.baker), revealedLevel: Number(content.level) };
    case 'vdf_revelation':
      return { ...plainRow(hash, content.kind, block.metadata.baker), solution: content.solution };
    case 'drain_delegate':
      return { ...plainRow(hash, content.kind, content.delegate), receiver: content.destination, volume: undefined };
    case 'activate_account':
      return { ...plainRow(hash, content.kind, content.pkh), volume: undefined };
  }
  if (content.kind.startsWith('double_')) {
    // Seoul+ receipts name both delegates; earlier ones credit the accuser's reward (a contract, Emmy a
    // rewards freezer) and debit the offender's frozen deposits. The amounts come from the balance updates.
    const updates: Json[] = meta?.balance_updates ?? [];
    const credit = updates.find(
      (u) => BigInt(u.change) > 0n && (u.kind === 'contract' || (u.kind === 'freezer' && u.category === 'rewards')),
    );
    const debit = updates.find((u) => BigInt(u.change) < 0n && u.kind === 'freezer');
    const accuser = meta?.rewarded_delegate ?? credit?.contract ?? credit?.delegate;
    const offender = meta?.punished_delegate ?? meta?.forbidden_delegate ?? debit?.delegate;
    // Seoul's one evidence kind for both consensus operations names the misbehaviour.
    const kind =
      content.kind === 'double_consensus_operation_evidence'
        ? `double_${meta?.misbehaviour?.kind ?? content.op1?.operations?.kind}_evidence`
        : content.kind;
    return {
      ...plainRow(hash, kind, accuser),
      receiver: offender,
      accuser,
      offender,
      fee: undefined,
      volume: undefined,
    };
  }
  return plainRow(hash, content.kind, content.source ?? meta?.delegate);
}

/** Every row of one operation group of a block. */
/** The internal operations an explorer group lists: all but contract events. */
export function listedInternal(meta: Json | undefined): Json[] {
  return (meta?.internal_operation_results ?? []).filter((i: Json) => i.kind !== 'event');
}

export function expectedGroup(group: Json, block: Json): ExpectedOperation[] {
  const out: RowFields[] = [];
  for (const content of group.contents ?? []) {
    const meta = typeof content.metadata === 'object' ? content.metadata : undefined;
    if (content.kind === 'attestations_aggregate' || content.kind === 'preattestations_aggregate') {
      for (const member of meta?.committee ?? [])
        out.push({
          ...plainRow(group.hash, content.kind, member.delegate),
          power: consensusPower(member.consensus_power),
        });
    } else if (content.fee !== undefined) {
      out.push(managerRow(group.hash, content, meta?.operation_result, undefined));
      // Contract events are not listed as operations: they are the `events` of the signed operation.
      for (const i of listedInternal(meta)) out.push(managerRow(group.hash, i, i.result, content));
    } else if (/endorsement|attestation/.test(content.kind) && !content.kind.startsWith('double_')) {
      const row = plainRow(group.hash, content.kind, meta?.delegate);
      if (Array.isArray(meta?.slots)) row.slots = meta.slots;
      row.power =
        row.slots?.length ??
        consensusPower(meta?.endorsement_power ?? meta?.preendorsement_power ?? meta?.consensus_power);
      out.push(row);
    } else {
      out.push(otherRow(group.hash, content, block));
    }
  }
  const opL = (block.operations as Json[][]).findIndex((list) => list.includes(group));
  return out.map((row) => ({ ...row, opL }));
}

export function expectedBlock(block: Json): ExpectedOperation[] {
  return (block.operations ?? []).flat().flatMap((g: Json) => expectedGroup(g, block));
}

/** The block's round: the Tenderbake fitness's last element, the Emmy header priority. */
export function blockRound(block: Json): number {
  const fitness: string[] = block.header.fitness;
  return fitness[0] === '02' ? parseInt(fitness[fitness.length - 1], 16) : Number(block.header.priority ?? 0);
}

/** The cycle the block belongs to, from the receipt (`level_info` from Florence, `level` before). */
export function blockCycle(block: Json): number {
  return Number((block.metadata.level_info ?? block.metadata.level).cycle);
}

const PERIOD_NAMES: Record<string, string> = {
  testing_vote: 'exploration',
  testing: 'cooldown',
  promotion_vote: 'promotion',
};

export function votingPeriodKind(block: Json): string {
  const kind: string = block.metadata.voting_period_info?.voting_period?.kind ?? block.metadata.voting_period_kind;
  return PERIOD_NAMES[kind] ?? kind;
}

/** Tez as the API sends it (a number with up to 6 decimals) back to mutez. */
export function tezToMutezNumber(tez: unknown): bigint {
  if (typeof tez !== 'number') throw new Error(`not a tez amount: ${JSON.stringify(tez)}`);
  return BigInt(Math.round(tez * 1e6));
}
