import type { Account, Baker, BigMap } from './AccountBook';
import type { LedgerHistory } from './LedgerHistory';
import type { Micheline } from './Michelson';

export interface BigMapEntry {
  key: Micheline;
  value: Micheline;
}

/**
 * The ledger as of the end of one block (or live when `level` is undefined), read through the history's
 * change logs. What the context RPCs read: accounts, bakers and big maps. Objects it returns are
 * copies for past levels; never mutate them.
 */
export class LedgerView {
  constructor(
    private readonly history: LedgerHistory,
    readonly level: number | undefined,
    private readonly accounts: Map<string, Account>,
    private readonly allAddresses: readonly string[],
    private readonly allBakers: readonly Baker[],
    private readonly bakerByAddress: ReadonlyMap<string, Baker>,
    private readonly bigMaps: Map<number, BigMap>,
  ) {}

  account(address: string): Account | undefined {
    const account = this.history.read(this.accounts, address, this.level) as Account | undefined;
    return account && this.history.snapshot(account, this.level);
  }

  /** Addresses that existed at this level, in creation order. */
  addresses(): string[] {
    return this.level === undefined
      ? [...this.allAddresses]
      : this.allAddresses.filter((a) => this.history.read(this.accounts, a, this.level) !== undefined);
  }

  /** Bakers are registered at genesis, so the list is the same at every level; their fields are not. */
  bakers(): Baker[] {
    return this.allBakers.map((b) => this.history.snapshot(b, this.level));
  }

  baker(address: string): Baker | undefined {
    const b = this.bakerByAddress.get(address);
    return b && this.history.snapshot(b, this.level);
  }

  bigMap(id: number): { keyType: Micheline; valueType: Micheline; entries: [string, BigMapEntry][] } | undefined {
    const map = this.history.read(this.bigMaps, id, this.level) as BigMap | undefined;
    if (!map) return undefined;
    return { keyType: map.keyType, valueType: map.valueType, entries: this.history.entries(map.entries, this.level) };
  }

  bigMapValue(id: number, keyHash: string): Micheline | undefined {
    const map = this.history.read(this.bigMaps, id, this.level) as BigMap | undefined;
    if (!map) return undefined;
    return (this.history.read(map.entries, keyHash, this.level) as BigMapEntry | undefined)?.value;
  }
}
