import type { Micheline } from './RawBlock';

/** One account's ticket balance change (flattened from Lima+ `ticket_updates` / `ticket_receipt`). */
export interface TicketUpdate {
  ticketer: string;
  contentType: Micheline;
  content: Micheline;
  account: string;
  /** Signed change in ticket units (not mutez). */
  amount: bigint;
}
