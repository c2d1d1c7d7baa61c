import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import type { Micheline } from '../Michelson';
import { consumedMilligas, type InternalResult, type ResultFields } from '../operations/ManagerGroup';
import { LazyStorageDiff } from './LazyStorageDiff';

/** What a bootstrap or originated contract is, for plugins that look for known protocols (extensions add theirs). */
export type ContractRole = 'fa1.2' | 'fa2' | 'registry' | 'ticketer' | (string & {});

/** Protocol burn per byte of new storage (`cost_per_byte`). */
export const COST_PER_BYTE = 250n;
/** Bytes charged when a big_map entry is added (key + value + overhead, a round figure). */
export const BYTES_PER_ENTRY = 68n;

/** A contract's storage size when originated: its code and initial storage (a round figure, not the binary size). */
export function scriptSize(model: ContractModel, storage: Micheline): bigint {
  return BigInt(JSON.stringify(storage).length + JSON.stringify(model.code).length);
}

export interface ContractModel {
  readonly address: string;
  readonly role: ContractRole;
  /** The service it is in the metadata `alias.kind` vocabulary (dex, farm, lending…): what the demo calls it. */
  readonly service?: string;
  readonly code: Micheline;
  /** Storage rendered from the model state, in the node's optimized form. */
  storage(): Micheline;
}

/**
 * State of one contract call being applied: who pays storage, and the internal operations emitted so
 * far (a flat list in execution order; their index is the `nonce`).
 */
export class CallContext {
  readonly internal: InternalResult[] = [];

  constructor(
    readonly ctx: BlockContext,
    readonly payer: string,
  ) {}

  /**
   * Result fields of a contract execution, in node order. `grownEntries` new big_map entries make the
   * contract's storage grow; the payer burns the new bytes (`paid_storage_size_diff`).
   */
  contractResult(
    model: ContractModel,
    diff: LazyStorageDiff,
    gasLimit: number,
    grownEntries: number,
    transfers?: BalanceUpdates,
  ): ResultFields {
    const { book } = this.ctx;
    const account = book.get(model.address);
    book.set(model.address, 'script', { code: model.code, storage: model.storage() });
    const result: ResultFields = { storage: model.storage() };
    const grown = BigInt(grownEntries) * BYTES_PER_ENTRY;
    const updates = transfers ?? new BalanceUpdates(book);
    if (grown > 0n) {
      book.set(model.address, 'storageSize', account.storageSize + grown);
      book.set(model.address, 'paidStorage', account.paidStorage + grown);
      updates.transfer(
        (b, c) => b.contract(this.payer, c),
        (b, c) => b.burned('storage fees', c),
        grown * COST_PER_BYTE,
      );
    }
    if (updates.items.length) result.balance_updates = updates.items;
    result.consumed_milligas = consumedMilligas(this.ctx, gasLimit);
    result.storage_size = String(book.get(model.address).storageSize);
    if (grown > 0n) result.paid_storage_size_diff = String(grown);
    if (!diff.isEmpty) result.lazy_storage_diff = diff.toJSON();
    return result;
  }

  /** Record an internal call `source → model.address` and its result. */
  pushCall(
    source: string,
    model: ContractModel,
    amount: bigint,
    entrypoint: string,
    value: Micheline,
    result: ResultFields,
  ): void {
    this.internal.push({
      kind: 'transaction',
      source,
      fields: { amount: String(amount), destination: model.address, parameters: { entrypoint, value } },
      result,
    });
  }

  /** An internal tez transfer from a contract to an implicit account. */
  pushTezTransfer(source: string, destination: string, amount: bigint): void {
    const updates = new BalanceUpdates(this.ctx.book).transfer(
      (b, c) => b.contract(source, c),
      (b, c) => b.contract(destination, c),
      amount,
    );
    this.internal.push({
      kind: 'transaction',
      source,
      fields: { amount: String(amount), destination },
      result: { balance_updates: updates.items, consumed_milligas: '2100000' },
    });
  }

  pushEvent(source: string, tag: string, type: Micheline, payload: Micheline): void {
    this.internal.push({
      kind: 'event',
      source,
      fields: { type, tag, payload },
      result: { consumed_milligas: consumedMilligas(this.ctx, 100) },
    });
  }

  newDiff(): LazyStorageDiff {
    return new LazyStorageDiff(this.ctx.book);
  }
}
