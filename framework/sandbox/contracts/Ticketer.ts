import type { AccountBook } from '../AccountBook';
import { addressBytes, int, pair, str, type Micheline } from '../Michelson';
import type { ContractModel } from './ContractModel';
import { entrypoints, pairT, script, tAddress, tNat, tString } from './scripts';

/**
 * Mints tickets (`ticket string`) and sends them to implicit accounts: the mint call's result carries
 * `ticket_updates`, the internal transfer to the holder a `ticket_receipt`.
 */
export class Ticketer implements ContractModel {
  readonly role = 'ticketer' as const;
  readonly code = script(
    entrypoints(['mint', pairT(tAddress('%to'), tNat('%amount'))], ['burn', tNat()]),
    pairT(tString('%content'), tNat('%minted')),
  );

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly content: string,
  ) {}

  init(): void {
    this.book.setState<bigint>(this.address, 0n);
  }

  storage(): Micheline {
    return pair(str(this.content), int(this.book.state<bigint>(this.address)));
  }

  mint(amount: bigint): void {
    this.book.setState<bigint>(this.address, this.book.state<bigint>(this.address) + amount);
  }

  token(): Record<string, unknown> {
    return { ticketer: this.address, content_type: { prim: 'string' }, content: str(this.content) };
  }

  /** The ticket value as a parameter (`Pair ticketer (Pair content amount)`). */
  ticketValue(amount: bigint): Micheline {
    return pair(addressBytes(this.address), pair(str(this.content), int(amount)));
  }
}
