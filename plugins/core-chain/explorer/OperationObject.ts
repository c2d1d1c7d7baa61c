import {
  ContractCode,
  entrypointArgType,
  ExplorerArgs,
  metadataField,
  michelineFromHex,
  typedValue,
} from '../../../framework';
import type { OpRead } from '../tables.generated';
import { bigMapDiffObjects } from './BigMapDiffObjects';

/** The op route's switches: raw Micheline next to decoded values, account metadata, storage and bigmap updates. */
export interface OperationOptions {
  prim: boolean;
  meta: boolean;
  storage: boolean;
}

/** The switches every route that returns operation objects takes. */
export const OPERATION_SWITCHES = ['prim', 'meta', 'storage'] as const;

export function operationOptions(args: ExplorerArgs): OperationOptions {
  return { prim: args.flag('prim'), meta: args.flag('meta'), storage: args.flag('storage') };
}

/** A contract an operation called or originated, as the contract table holds it now. */
export interface ContractState {
  code?: ContractCode;
  /** Current storage (Micheline) and its 8-byte hash. */
  storage?: unknown;
  storageHash: string | null;
}

/** What an op row does not hold itself; OperationLoader looks these up. */
export interface OperationExtras {
  /** Internal operations: the signer of the outer operation. */
  source?: string;
  /** Delegations: the delegate before this one (latest earlier delegation or origination delegate). */
  previousBaker?: string;
  /** Nonce revelations: the baker of the block whose nonce was revealed. */
  seedPublisher?: string;
  contract?: ContractState;
  /** Register_constant: the registered value (Micheline). */
  constantValue?: unknown;
  /** Contract events it caused (signed operations) or emitted (internal `event` operations). */
  events?: Record<string, unknown>[];
  /** Ticket balance changes its receipt lists. */
  ticketUpdates?: Record<string, unknown>[];
  /** Contract calls: the storage the call left (Micheline), from the storage history. */
  storageAfter?: unknown;
}

const DENUNCIATIONS = new Set(['double_baking', 'double_endorsement', 'double_preendorsement']);
const CONSENSUS = new Set(['endorsement', 'preendorsement']);

/**
 * The explorer's operation object for one op row, fields in the spec's order. Fields that do not
 * apply to the row's type (roles, parameters, script, value, …) are left out; `storage` and
 * `big_map_diff` only with `storage=1` (storage null when the table does not know it),
 * `metadata` only with `meta=1`.
 */
export function operationObject(
  row: OpRead,
  extras: OperationExtras,
  headHeight: number,
  options: OperationOptions,
): Record<string, unknown> {
  const type = row.type;
  const o: Record<string, unknown> = { row_id: row.row_id, id: row.id };
  if (row.hash !== null) o.hash = row.hash;
  Object.assign(o, { type, block: row.block, time: row.time, height: row.height, cycle: row.cycle });
  if (row.counter !== null) o.counter = row.counter;
  for (const k of [
    'op_n',
    'op_l',
    'op_p',
    'status',
    'is_success',
    'is_contract',
    'is_event',
    'is_internal',
    'is_rollup',
  ] as const)
    o[k] = row[k];
  for (const k of [
    'gas_limit',
    'gas_used',
    'storage_limit',
    'storage_paid',
    'volume',
    'fee',
    'reward',
    'deposit',
    'burned',
  ] as const)
    o[k] = row[k];
  const data = dataValue(type, row.data);
  if (data !== undefined && type !== 'transfer_ticket') o.data = data;
  if (row.errors !== null) o.errors = row.errors;
  const parameters = parametersValue(row, extras.contract?.code, options.prim, data);
  if (parameters) o.parameters = parameters;
  const code = extras.contract?.code;
  if (type === 'origination' && code) o.script = code.script;
  if (options.storage && (row.is_contract || type === 'origination')) {
    o.storage = storageValue(row, extras, type === 'origination', options.prim);
    if (row.big_map_diff !== null) o.big_map_diff = bigMapDiffObjects(row.big_map_diff) ?? null;
  }
  if (type === 'register_constant' && extras.constantValue !== undefined) o.value = extras.constantValue;
  if (row.code_hash !== null) o.code_hash = row.code_hash;
  Object.assign(o, roles(type, row, extras));
  // Account row ids of the roles, as the TzPro SDK's Op reads them (0: no such role).
  for (const k of ['sender_id', 'receiver_id', 'creator_id', 'baker_id'] as const) o[k] = row[k] ?? 0;
  Object.assign(o, typeFields(type, row));
  o.confirmations = Math.max(0, headHeight - Number(row.height));
  Object.assign(o, metadataField(options.meta, o.sender, o.receiver, o.source, o.creator, o.baker, o.previous_baker));
  if (extras.events) o.events = extras.events;
  if (extras.ticketUpdates) o.ticket_updates = extras.ticketUpdates;
  return o;
}

/**
 * The spec's `data`: denunciation evidence (and transfer_ticket's ticket) as JSON, Emmy endorsement slot masks as
 * integers, the rest as stored.
 */
function dataValue(type: string, data: string | null): unknown {
  if (data === null) return undefined;
  if (DENUNCIATIONS.has(type) || type === 'transfer_ticket') {
    try {
      return JSON.parse(data);
    } catch {
      return data;
    }
  }
  // Slot masks wider than a double's integers stay decimal strings (data is raw JSON to Go clients).
  if (CONSENSUS.has(type) && /^\d+$/.test(data)) return Number.isSafeInteger(Number(data)) ? Number(data) : data;
  return data;
}

/** `{entrypoint, value, prim?}` of calls; transfer_ticket adds the ticket it sends (kept in `data`). */
function parametersValue(
  row: OpRead,
  code: ContractCode | undefined,
  withPrim: boolean,
  data: unknown,
): Record<string, unknown> | undefined {
  const entrypoint = row.entrypoint;
  if (entrypoint === null) return undefined;
  const out: Record<string, unknown> = { entrypoint };
  if (row.type === 'transfer_ticket' && typeof data === 'object' && data !== null) Object.assign(out, data);
  const prim = michelineFromHex(row.parameters);
  if (prim === undefined) return out;
  const type = code ? entrypointArgType(code.parameterType, entrypoint) : undefined;
  out.value = type === undefined ? prim : typedValue(type, prim);
  if (withPrim) out.prim = prim;
  return out;
}

/**
 * Storage after the operation, from the storage history: an origination's (its big maps allocated),
 * a call's (or the contract's current one when the hashes match). Null when unknown (calls before
 * the first indexed block of a contract).
 */
function storageValue(row: OpRead, extras: OperationExtras, origination: boolean, withPrim: boolean): unknown {
  const contract = extras.contract;
  const code = contract?.code;
  let prim: unknown;
  if (extras.storageAfter !== undefined) prim = extras.storageAfter;
  else if (origination) prim = code?.initialStorage;
  else if (row.storage_hash !== null && contract && row.storage_hash === contract.storageHash) prim = contract.storage;
  if (prim === undefined) return null;
  const value = code ? typedValue(code.storageType, prim) : prim;
  return withPrim ? { value, prim } : { value };
}

/** Who took part, by the roles the spec names for the row's type. */
function roles(type: string, row: OpRead, extras: OperationExtras): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (row.sender !== null) out.sender = row.sender;
  if (type === 'delegation') {
    if (extras.previousBaker !== undefined) out.receiver = extras.previousBaker;
  } else if (row.receiver !== null) out.receiver = row.receiver;
  if (extras.source !== undefined) out.source = extras.source;
  // Creator and baker always (the SDK's Op has both as table columns; "" for none, as id 0 renders).
  const seedPublisher = type === 'nonce_revelation' ? extras.seedPublisher : undefined;
  out.creator = seedPublisher ?? row.creator ?? '';
  out.baker = (type === 'origination' || type === 'delegation') && row.baker !== null ? row.baker : '';
  if (type === 'delegation' && extras.previousBaker !== undefined) out.previous_baker = extras.previousBaker;
  if (DENUNCIATIONS.has(type)) {
    if (row.sender !== null) out.accuser = row.sender;
    if (row.receiver !== null) out.offender = row.receiver;
  }
  return out;
}

/** Type-specific fields: rollup level, consensus power, deposits limit, VDF solution and proof. */
function typeFields(type: string, row: OpRead): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (row.rollup_level !== null) out.level = row.rollup_level;
  if (CONSENSUS.has(type) && row.power !== null) out.power = row.power;
  if (type === 'deposits_limit') out.limit = row.deposits_limit;
  const data = row.data;
  // The revelation's two class-group elements, of equal length, concatenated.
  if (type === 'vdf_revelation' && data !== null && data.length % 4 === 0) {
    Object.assign(out, { solution: data.slice(0, data.length / 2), proof: data.slice(data.length / 2) });
  }
  return out;
}
