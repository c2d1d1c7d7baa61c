import { KNOWN_BALANCE_UPDATE_KINDS, toBalanceUpdate, type BalanceUpdate } from './BalanceUpdate';
import { asBigInt, asRecords } from './jsonRead';
import type { NormalizeWarning, WarningSink } from './NormalizeWarning';
import type { ProtocolEra } from './ProtocolEra';

/** What every row builder needs to know about the block around an operation, plus warning helpers. */
export class RowContext {
  constructor(
    readonly era: ProtocolEra,
    /** The block's baker: the includer of anonymous operations (nonce/VDF revelations, denunciations). */
    readonly blockBaker: string | undefined,
    private readonly sink: WarningSink,
  ) {}

  warn(code: NormalizeWarning['code'], message: string, extra: Partial<NormalizeWarning> = {}): void {
    this.sink({ code, message, ...extra });
  }

  /** A node decimal string as bigint; absent → 0n, malformed → 0n plus a `bad_number` warning. */
  decimal(value: unknown, field: string, opHash?: string): bigint {
    if (value === undefined || value === null) return 0n;
    const parsed = asBigInt(value);
    if (parsed !== undefined) return parsed;
    this.warn('bad_number', `field ${field} is not a decimal number: ${JSON.stringify(value)}`, { opHash });
    return 0n;
  }

  /** Like `decimal`, but keeps absence visible. */
  optionalDecimal(value: unknown, field: string, opHash?: string): bigint | undefined {
    return value === undefined || value === null ? undefined : this.decimal(value, field, opHash);
  }

  balanceUpdates(list: unknown, opHash?: string): BalanceUpdate[] {
    return asRecords(list).map((raw) => {
      const update = toBalanceUpdate(raw, this.decimal(raw.change, 'balance_updates.change', opHash));
      if (!KNOWN_BALANCE_UPDATE_KINDS.has(update.kind)) {
        this.warn('unknown_balance_update_kind', `unknown balance update kind ${update.kind}`, {
          opHash,
          kind: update.kind,
        });
      }
      return update;
    });
  }
}
