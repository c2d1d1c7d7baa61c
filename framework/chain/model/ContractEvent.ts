import type { Micheline } from './RawBlock';

/** A contract event (Kathmandu+ internal `event` operation). */
export interface ContractEvent {
  contract: string;
  type: Micheline;
  tag?: string;
  payload?: Micheline;
}
