import type { AccountBook } from '../AccountBook';
import { scriptExpr, type Micheline } from '../Michelson';

interface Update {
  key_hash: string;
  key: Micheline;
  value?: Micheline;
}

interface Item {
  kind: 'big_map';
  id: string;
  diff: {
    action: 'update' | 'alloc' | 'copy' | 'remove';
    updates?: Update[];
    source?: string;
    key_type?: Micheline;
    value_type?: Micheline;
  };
}

/**
 * Collects the `lazy_storage_diff` of one operation result while applying the same changes to the
 * ledger's big maps: updates are grouped per big map id, as the node reports them.
 */
export class LazyStorageDiff {
  private readonly items: Item[] = [];

  constructor(private readonly book: AccountBook) {}

  /** Set (value given) or remove (value undefined) one entry. */
  update(id: number, key: Micheline, value: Micheline | undefined): this {
    const map = this.book.bigMap(id);
    if (!map) throw new Error(`sandbox: unknown big_map ${id}`);
    const keyHash = scriptExpr(key, map.keyType);
    this.book.setBigMapEntry(id, keyHash, key, value);
    const update: Update = value === undefined ? { key_hash: keyHash, key } : { key_hash: keyHash, key, value };
    this.itemFor(id, 'update').diff.updates?.push(update);
    return this;
  }

  alloc(keyType: Micheline, valueType: Micheline): number {
    const map = this.book.allocBigMap(keyType, valueType);
    this.items.push({
      kind: 'big_map',
      id: String(map.id),
      diff: { action: 'alloc', updates: [], key_type: keyType, value_type: valueType },
    });
    return map.id;
  }

  /** Copy a big map into a fresh one (originating with a big map passed by value). */
  copy(sourceId: number): number {
    const source = this.book.bigMap(sourceId);
    if (!source) throw new Error(`sandbox: unknown big_map ${sourceId}`);
    const map = this.book.allocBigMap(source.keyType, source.valueType);
    for (const [keyHash, e] of source.entries) this.book.setBigMapEntry(map.id, keyHash, e.key, e.value);
    this.items.push({
      kind: 'big_map',
      id: String(map.id),
      diff: { action: 'copy', source: String(sourceId), updates: [] },
    });
    return map.id;
  }

  remove(id: number): this {
    this.book.removeBigMap(id);
    this.items.push({ kind: 'big_map', id: String(id), diff: { action: 'remove' } });
    return this;
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  toJSON(): Item[] {
    return this.items;
  }

  private itemFor(id: number, action: 'update'): Item {
    // Updates to a map allocated or copied in the same result go into that alloc/copy entry.
    const existing = this.items.find((i) => i.id === String(id) && i.diff.action !== 'remove');
    if (existing) return existing;
    const item: Item = { kind: 'big_map', id: String(id), diff: { action, updates: [] } };
    this.items.push(item);
    return item;
  }
}

/** Value of a big map entry, if present. */
export function bigMapGet(book: AccountBook, id: number, key: Micheline): Micheline | undefined {
  const map = book.bigMap(id);
  if (!map) return undefined;
  return map.entries.get(scriptExpr(key, map.keyType))?.value;
}
