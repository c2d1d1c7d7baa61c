import { asString, isRecord } from './jsonRead';
import type { NormalizedOperation } from './NormalizedOperation';
import { applyResult, creditsTo, emptyRow, setStatus, type RowPosition } from './operationRow';
import { INTERNAL_ONLY_KINDS, OPERATION_KINDS, STAKING_ENTRYPOINTS, type KindInfo } from './OperationType';
import type { RawOperationResult } from './RawBlock';
import type { RowContext } from './RowContext';

const IMPLICIT_ACCOUNT = /^tz[1-5]/;

function resultOf(holder: Record<string, unknown> | undefined, field: string): RawOperationResult | undefined {
  const value = holder?.[field];
  return isRecord(value) ? (value as RawOperationResult) : undefined;
}

function applyTransaction(
  row: NormalizedOperation,
  op: Record<string, unknown>,
  result: RawOperationResult | undefined,
  ctx: RowContext,
): void {
  const destination = asString(op.destination);
  row.receiver = destination;
  const params = op.parameters;
  if (isRecord(params) && typeof params.entrypoint === 'string') {
    row.entrypoint = params.entrypoint;
    row.parameters = params.value;
  } else if (params !== undefined && params !== null) {
    // Before Babylon `parameters` was the bare Micheline argument of the only entrypoint.
    row.entrypoint = 'default';
    row.parameters = params;
  }
  if (row.isSuccess) row.volume = ctx.decimal(op.amount, 'amount', row.hash);
  // Before Babylon a KT1 could be a scriptless account; a call then shows parameters or a storage.
  row.isContract =
    destination?.startsWith('KT1') === true &&
    (ctx.era.babylonPlus || row.parameters !== undefined || result?.storage !== undefined);
  row.isRollup = destination?.startsWith('sr1') === true || destination?.startsWith('txr1') === true;
  if (
    destination !== undefined &&
    IMPLICIT_ACCOUNT.test(destination) &&
    row.entrypoint !== undefined &&
    STAKING_ENTRYPOINTS.has(row.entrypoint)
  ) {
    row.type = row.entrypoint;
  }
}

function rollupAddress(op: Record<string, unknown>, result: RawOperationResult | undefined): string | undefined {
  return (
    asString(op.rollup) ??
    asString(op.tx_rollup) ??
    asString(op.zk_rollup) ??
    asString(result?.originated_rollup) ??
    asString(result?.address) ??
    asString(result?.originated_zk_rollup)
  );
}

/** The level a rollup operation refers to: its commitment's inbox level, or the level it names or settles. */
function rollupLevelOf(op: Record<string, unknown>, result: RawOperationResult | undefined): number | undefined {
  const commitment = isRecord(op.commitment) ? op.commitment : undefined;
  const candidates = [commitment?.inbox_level, commitment?.level, op.level, result?.inbox_level, result?.level];
  const level = candidates.find((v) => typeof v === 'number' && Number.isInteger(v));
  return level as number | undefined;
}

/** Roles, amounts and payloads of a manager operation (top-level or internal), by kind. */
function applyOperationFields(
  row: NormalizedOperation,
  op: Record<string, unknown>,
  result: RawOperationResult | undefined,
  ctx: RowContext,
): void {
  switch (row.kind) {
    case 'transaction':
      applyTransaction(row, op, result, ctx);
      return;
    case 'origination':
      row.creator = row.sender;
      row.receiver = row.originatedContracts[0];
      row.baker = asString(op.delegate);
      if (op.script !== undefined) row.script = op.script;
      if (row.isSuccess) row.volume = ctx.decimal(op.balance, 'balance', row.hash);
      return;
    case 'delegation':
      row.baker = asString(op.delegate);
      return;
    case 'reveal':
      row.data = asString(op.public_key);
      return;
    case 'register_global_constant':
      row.value = op.value;
      row.constantAddress = asString(result?.global_address);
      return;
    case 'set_deposits_limit':
      row.limit = op.limit === undefined || op.limit === null ? null : ctx.decimal(op.limit, 'limit', row.hash);
      return;
    case 'increase_paid_storage':
      row.receiver = asString(op.destination);
      if (row.isSuccess) row.storagePaid = ctx.decimal(op.amount, 'amount', row.hash);
      return;
    case 'update_consensus_key':
    case 'update_companion_key':
      row.data = asString(op.pk);
      return;
    case 'transfer_ticket':
      row.receiver = asString(op.destination);
      row.entrypoint = asString(op.entrypoint);
      // The ticket sent, as the explorer's `parameters` shows it.
      row.data = {
        ticket_ty: op.ticket_ty,
        ticket_contents: op.ticket_contents,
        ticket_ticketer: op.ticket_ticketer,
        ticket_amount: op.ticket_amount,
      };
      return;
    case 'event':
      row.events = [{ contract: row.sender ?? '', type: op.type, tag: asString(op.tag), payload: op.payload }];
      return;
    default:
      row.receiver = rollupAddress(op, result) ?? asString(op.destination);
      if (row.isRollup) row.rollupLevel = rollupLevelOf(op, result);
  }
}

function internalRow(
  internal: Record<string, unknown>,
  index: number,
  parent: NormalizedOperation,
  ctx: RowContext,
): NormalizedOperation {
  const kind = asString(internal.kind) ?? 'unknown';
  const info = INTERNAL_ONLY_KINDS[kind] ?? OPERATION_KINDS[kind];
  if (info === undefined) {
    ctx.warn('unknown_kind', `unknown internal operation kind ${kind}`, { opHash: parent.hash, kind });
  }
  const position: RowPosition = {
    opL: parent.opL,
    opP: parent.opP,
    opC: parent.opC,
    opI: index + 1,
    hash: parent.hash,
  };
  const row = emptyRow(internal, kind, info?.type ?? kind, position, parent.hasMetadata);
  row.isUnknownKind = info === undefined;
  row.isRollup = info?.isRollup ?? false;
  row.sender = asString(internal.source);
  row.source = parent.source;
  const result = resultOf(internal, 'result');
  setStatus(row, 'unknown');
  if (result !== undefined) applyResult(row, result, ctx);
  applyOperationFields(row, internal, result, ctx);
  return row;
}

/** The rows of one manager content: the content itself, then its internal operations in execution order. */
export function managerRows(
  content: Record<string, unknown>,
  kind: string,
  info: KindInfo | undefined,
  position: RowPosition,
  ctx: RowContext,
): NormalizedOperation[] {
  const meta = isRecord(content.metadata) ? content.metadata : undefined;
  const row = emptyRow(content, kind, info?.type ?? kind, position, meta !== undefined);
  row.isUnknownKind = info === undefined;
  row.isRollup = info?.isRollup ?? false;
  row.sender = asString(content.source);
  row.source = row.sender;
  row.counter = ctx.optionalDecimal(content.counter, 'counter', row.hash);
  row.fee = ctx.decimal(content.fee, 'fee', row.hash);
  row.gasLimit = ctx.decimal(content.gas_limit, 'gas_limit', row.hash);
  row.storageLimit = ctx.decimal(content.storage_limit, 'storage_limit', row.hash);
  row.balanceUpdates = ctx.balanceUpdates(meta?.balance_updates, row.hash);
  const result = resultOf(meta, 'operation_result');
  setStatus(row, 'unknown');
  if (result !== undefined) applyResult(row, result, ctx);
  else if (meta === undefined) ctx.warn('missing_metadata', `no receipt for ${kind}`, { opHash: row.hash, kind });
  applyOperationFields(row, content, result, ctx);

  const rows = [row];
  const internals = Array.isArray(meta?.internal_operation_results) ? meta.internal_operation_results : [];
  internals.forEach((internal, index) => {
    if (!isRecord(internal)) {
      ctx.warn('malformed_content', `internal operation ${index} is not an object`, { opHash: row.hash });
      return;
    }
    const child = internalRow(internal, index, row, ctx);
    rows.push(child);
    if (child.kind === 'event') row.events.push(...child.events);
  });
  return rows;
}

/**
 * A row for one `implicit_operations_results` entry (Granada+): the liquidity-baking subsidy
 * (`subsidy`) or a protocol-migration origination/transaction (`migration`). No hash, list -1.
 */
export function implicitRow(result: Record<string, unknown>, index: number, ctx: RowContext): NormalizedOperation {
  const kind = asString(result.kind) ?? 'unknown';
  const row = emptyRow(result, kind, 'migration', { opL: -1, opP: index, opC: 0, opI: 0, hash: '' }, true);
  row.isEvent = true;
  applyResult(row, result as RawOperationResult, ctx);
  if (row.resultBalanceUpdates.some((u) => u.origin === 'subsidy')) row.type = 'subsidy';
  row.receiver =
    row.originatedContracts[0] ??
    row.resultBalanceUpdates.find((u) => u.kind === 'contract' && u.change > 0n)?.contract;
  row.volume = creditsTo(row.resultBalanceUpdates, (u) => u.kind === 'contract');
  return row;
}
