import type { BalanceUpdate } from './BalanceUpdate';
import { asArray, asBoolean, asRecords, asString, isRecord } from './jsonRead';
import type { NormalizedOperation } from './NormalizedOperation';
import { toOperationStatus } from './OperationStatus';
import type { RawOperationResult } from './RawBlock';
import type { RowContext } from './RowContext';
import { bigMapDiffsOf, saplingDiffsOf } from './storageDiffs';
import type { TicketUpdate } from './TicketUpdate';

/** Where a row sits in its block; `opN` is assigned afterwards by the block normalizer. */
export interface RowPosition {
  opL: number;
  opP: number;
  opC: number;
  opI: number;
  hash: string;
}

/** A row with every money/gas field zero and every list empty; builders fill in what applies. */
export function emptyRow(
  raw: Record<string, unknown>,
  kind: string,
  type: string,
  position: RowPosition,
  hasMetadata: boolean,
): NormalizedOperation {
  return {
    opN: -1,
    ...position,
    kind,
    type,
    status: 'applied',
    isSuccess: true,
    isInternal: position.opI > 0,
    isContract: false,
    isEvent: false,
    isRollup: false,
    isUnknownKind: false,
    hasMetadata,
    fee: 0n,
    gasLimit: 0n,
    gasUsed: 0n,
    gasUsedMilli: 0n,
    storageLimit: 0n,
    storagePaid: 0n,
    burned: 0n,
    volume: 0n,
    originatedContracts: [],
    bigMapDiffs: [],
    saplingDiffs: [],
    events: [],
    ticketUpdates: [],
    balanceUpdates: [],
    resultBalanceUpdates: [],
    raw,
  };
}

export function setStatus(row: NormalizedOperation, status: NormalizedOperation['status']): void {
  row.status = status;
  row.isSuccess = status === 'applied';
}

/**
 * Mutez burned by one result. Ithaca+ receipts are balanced and name the burn (`kind: burned`);
 * Emmy receipts only debit the payer, so the burn is what the debits exceed the credits by.
 */
export function burnedBy(updates: readonly BalanceUpdate[], tenderbake: boolean): bigint {
  let total = 0n;
  if (tenderbake) {
    for (const u of updates) if (u.kind === 'burned') total += u.change;
    return total;
  }
  for (const u of updates) if (!u.isPseudotoken) total -= u.change;
  return total > 0n ? total : 0n;
}

/** Sum of the positive changes of the updates that pass `accept`. */
export function creditsTo(updates: readonly BalanceUpdate[], accept: (u: BalanceUpdate) => boolean): bigint {
  let total = 0n;
  for (const u of updates) if (u.change > 0n && !u.isPseudotoken && accept(u)) total += u.change;
  return total;
}

function ticketUpdatesOf(list: unknown, ctx: RowContext, opHash: string): TicketUpdate[] {
  const out: TicketUpdate[] = [];
  for (const entry of asRecords(list)) {
    const token = isRecord(entry.ticket_token) ? entry.ticket_token : {};
    for (const update of asRecords(entry.updates)) {
      out.push({
        ticketer: asString(token.ticketer) ?? '',
        contentType: token.content_type,
        content: token.content,
        account: asString(update.account) ?? '',
        amount: ctx.decimal(update.amount, 'ticket_updates.amount', opHash),
      });
    }
  }
  return out;
}

/** Copies what every (internal or implicit) operation result carries onto the row. */
export function applyResult(row: NormalizedOperation, result: RawOperationResult, ctx: RowContext): void {
  const hash = row.hash;
  const milligas = ctx.optionalDecimal(result.consumed_milligas, 'consumed_milligas', hash);
  row.gasUsedMilli = milligas ?? ctx.decimal(result.consumed_gas, 'consumed_gas', hash) * 1000n;
  // The protocol rounds milligas up to whole gas units per result.
  row.gasUsed = (row.gasUsedMilli + 999n) / 1000n;
  row.storageSize = ctx.optionalDecimal(result.storage_size, 'storage_size', hash);
  row.storagePaid = ctx.decimal(result.paid_storage_size_diff, 'paid_storage_size_diff', hash);
  row.resultBalanceUpdates = ctx.balanceUpdates(result.balance_updates, hash);
  row.burned = burnedBy(row.resultBalanceUpdates, ctx.era.tenderbake);
  row.originatedContracts = asArray(result.originated_contracts).filter((a): a is string => typeof a === 'string');
  row.allocatedDestination = asBoolean(result.allocated_destination_contract);
  row.bigMapDiffs = bigMapDiffsOf(result);
  row.saplingDiffs = saplingDiffsOf(result);
  row.ticketUpdates = ticketUpdatesOf(result.ticket_updates ?? result.ticket_receipt, ctx, hash);
  if (result.storage !== undefined) row.storage = result.storage;
  if (Array.isArray(result.errors)) row.errors = result.errors;
  if (result.status !== undefined) setStatus(row, toOperationStatus(result.status));
  if (!row.isSuccess) {
    // Backtracked results still list what they would have paid; none of it happened.
    row.burned = 0n;
    row.storagePaid = 0n;
  }
}
