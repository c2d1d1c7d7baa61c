import type { ContractEvent, TicketUpdate } from '../../framework';
import type { EventRow, TicketUpdateRow } from './tables.generated';
import { encodeMicheline, hash8, withoutAnnotations } from '../../framework';

function hex(expr: unknown): string | null {
  return encodeMicheline(expr)?.toString('hex') ?? null;
}

/** Binary Micheline of a value the node always sends (a NOT NULL column): its absence is a broken receipt. */
function required(expr: unknown, what: string): Buffer {
  const bytes = encodeMicheline(expr);
  if (!bytes) throw new Error(`core-chain: a receipt without its ${what}`);
  return bytes;
}

/**
 * The event table's row of one applied contract event. `opId` is the signed operation that caused
 * it (where tzindex files events); `eventOpId` the internal `event` operation itself.
 */
export function contractEventRow(
  height: number,
  opId: bigint,
  eventOpId: bigint,
  event: ContractEvent,
  accountId: bigint,
): EventRow {
  return {
    height,
    op_id: opId,
    account_id: accountId,
    type: required(event.type, 'event type').toString('hex'),
    payload: hex(event.payload),
    tag: event.tag ?? null,
    type_hash: hash8(required(withoutAnnotations(event.type), 'event type')),
    contract: event.contract,
    event_op_id: eventOpId,
  };
}

/** The ticket_update table's rows of one applied operation's receipt. */
export function ticketUpdateRows(
  height: number,
  time: Date,
  opId: bigint,
  updates: readonly TicketUpdate[],
): TicketUpdateRow[] {
  return updates.map((u) => ({
    height,
    time,
    op_id: opId,
    ticketer: u.ticketer,
    type: required(u.contentType, 'ticket content type').toString('hex'),
    content: required(u.content, 'ticket content').toString('hex'),
    account: u.account,
    amount: u.amount,
  }));
}
