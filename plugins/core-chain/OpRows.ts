import { UNKNOWN_OPERATION_TYPE, type NormalizedBlock, type NormalizedOperation } from '../../framework';
import { bigMapDiffBytes } from './bigMapDiffBytes';
import type { PlannedEvent } from './BlockEvents';
import type { OpRow } from './tables.generated';
import { encodeMicheline } from '../../framework';

/** An account in a role of an op row. */
export interface Party {
  id: bigint | null;
  address: string | null;
}

export const NO_PARTY: Party = { id: null, address: null };

/** Values of an op row that come from core-chain's state rather than from the operation itself. */
export interface OpRowExtras {
  type: OpRow['type'];
  sender: Party;
  receiver: Party;
  creator: Party;
  baker: Party;
  reward: bigint;
  deposit: bigint;
  /** Overrides the operation's fee (denunciations: the offender's lost fees, negative). */
  fee?: bigint;
  storageHash: string | null;
  entrypointId: number | null;
  codeHash: string | null;
}

/** The op table's id: height << 16 | op_n, the same on every instance. */
export function opId(height: number, opN: number): bigint {
  return (BigInt(height) << 16n) | BigInt(opN);
}

function dataString(op: NormalizedOperation): string | null {
  if (op.isContract || op.data === undefined) return null;
  if (typeof op.data === 'string') return op.data;
  if (typeof op.data === 'bigint') return op.data.toString();
  return JSON.stringify(op.data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Every column of the op table, so all rows of a batch carry the same columns. */
function baseRow(block: NormalizedBlock, time: Date, opN: number, type: OpRow['type'], kind: string): OpRow {
  return {
    type,
    hash: null,
    height: block.level,
    cycle: block.cycle,
    time,
    op_n: opN,
    op_p: 0,
    status: 'applied',
    is_success: true,
    is_contract: false,
    is_internal: false,
    is_event: false,
    is_rollup: false,
    counter: null,
    gas_limit: 0n,
    gas_used: 0n,
    storage_limit: 0n,
    storage_paid: 0n,
    volume: 0n,
    fee: 0n,
    reward: 0n,
    deposit: 0n,
    burned: 0n,
    sender_id: null,
    receiver_id: null,
    creator_id: null,
    baker_id: null,
    data: null,
    parameters: null,
    storage_hash: null,
    errors: null,
    entrypoint_id: null,
    sender: null,
    receiver: null,
    creator: null,
    baker: null,
    block: block.hash,
    entrypoint: null,
    big_map_diff: null,
    id: opId(block.level, opN),
    code_hash: null,
    op_l: -1,
    power: null,
    deposits_limit: null,
    rollup_level: null,
    kind,
  };
}

function parties(row: OpRow, x: Pick<OpRowExtras, 'sender' | 'receiver' | 'creator' | 'baker'>): void {
  row.sender_id = x.sender.id;
  row.sender = x.sender.address;
  row.receiver_id = x.receiver.id;
  row.receiver = x.receiver.address;
  row.creator_id = x.creator.id;
  row.creator = x.creator.address;
  row.baker_id = x.baker.id;
  row.baker = x.baker.address;
}

/** The op row of a normalized operation row. */
export function operationRow(block: NormalizedBlock, time: Date, op: NormalizedOperation, x: OpRowExtras): OpRow {
  const row = baseRow(block, time, op.opN, x.type, op.kind);
  // A row without a receipt cannot be called applied; the op table has no `unknown` status.
  const status = op.status === 'unknown' ? 'failed' : op.status;
  // Assigned one by one: an Object.assign of a literal built a second object of 32 values per row.
  row.hash = op.hash === '' ? null : op.hash;
  row.op_l = op.opL;
  row.op_p = op.opP;
  row.status = status;
  row.is_success = op.isSuccess;
  row.is_contract = op.isContract;
  row.is_internal = op.isInternal;
  row.is_event = op.isEvent;
  row.is_rollup = op.isRollup;
  row.counter = op.isInternal ? null : (op.counter ?? null);
  row.gas_limit = op.gasLimit;
  row.gas_used = op.gasUsed;
  row.storage_limit = op.storageLimit;
  row.storage_paid = op.storagePaid;
  row.volume = op.volume;
  row.fee = x.fee ?? op.fee;
  row.reward = x.reward;
  row.deposit = x.deposit;
  row.burned = op.burned;
  row.data = x.type === UNKNOWN_OPERATION_TYPE ? op.kind : dataString(op);
  row.parameters =
    op.isContract && op.parameters !== undefined ? (encodeMicheline(op.parameters)?.toString('hex') ?? null) : null;
  row.storage_hash = op.isContract ? x.storageHash : null;
  row.errors = op.errors ?? null;
  row.entrypoint_id = op.isContract ? x.entrypointId : null;
  row.entrypoint = op.entrypoint ?? (op.isContract ? 'default' : null);
  row.big_map_diff = op.isContract ? bigMapDiffBytes(op.bigMapDiffs) : null;
  row.code_hash = x.codeHash;
  row.power = op.consensus?.power ?? null;
  row.deposits_limit = op.limit ?? null;
  row.rollup_level = op.rollupLevel ?? null;
  parties(row, x);
  return row;
}

/** The op row of an implicit event derived from block-level balance updates (bake, reward, unfreeze, …). */
export function eventRow(
  block: NormalizedBlock,
  time: Date,
  e: PlannedEvent,
  type: OpRow['type'],
  account: Party,
): OpRow {
  // Events are a few per block: a second object here costs nothing worth saving.
  const row: OpRow = {
    ...baseRow(block, time, e.opN, type, type),
    op_p: e.index,
    is_event: true,
    fee: e.fee,
    reward: e.reward,
    deposit: e.deposit,
    burned: e.burned,
  };
  parties(row, { sender: account, receiver: NO_PARTY, creator: NO_PARTY, baker: NO_PARTY });
  return row;
}
