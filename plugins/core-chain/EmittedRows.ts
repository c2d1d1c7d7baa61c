import type { ContractEvent, Row, TicketUpdate } from '../../framework';
import type { Party } from './OpRows';
import { encodeMicheline, exprHash, withoutAnnotations } from '../../framework';

function hex(expr: unknown): string | null {
  return encodeMicheline(expr)?.toString('hex') ?? null;
}

/**
 * The event table's row of one applied contract event. `opId` is the signed operation that caused
 * it (where tzindex files events); `eventOpId` the internal `event` operation itself.
 */
export function contractEventRow(height: number, opId: bigint, eventOpId: bigint, event: ContractEvent, contract: Party): Row {
  return {
    height,
    op_id: opId,
    account_id: contract.id,
    type: hex(event.type),
    payload: hex(event.payload),
    tag: event.tag ?? null,
    type_hash: exprHash(withoutAnnotations(event.type)),
    contract: event.contract,
    event_op_id: eventOpId,
  };
}

/** The ticket_update table's rows of one applied operation's receipt. */
export function ticketUpdateRows(height: number, time: Date, opId: bigint, updates: readonly TicketUpdate[]): Row[] {
  return updates.map((u) => ({
    height,
    time,
    op_id: opId,
    ticketer: u.ticketer,
    type: hex(u.contentType),
    content: hex(u.content),
    account: u.account,
    amount: u.amount,
  }));
}
