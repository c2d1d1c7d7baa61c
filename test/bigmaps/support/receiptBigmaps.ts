import type { Json } from '../../chain/support/Json';

/** One bigmap_updates row as the receipts imply it. */
export interface ExpectedUpdate {
  bigmap_id: number;
  action: 'alloc' | 'copy' | 'update' | 'remove';
  height: number;
  /** Operation hash; null for implicit (migration) results. */
  op: string | null;
  /** Who made it: the (internal) operation's source, and the group's signer. */
  sender?: string;
  source?: string;
  hash?: string;
  key?: Json;
  value?: Json;
  /** alloc and copy: the types the bigmap gets. */
  keyType?: Json;
  valueType?: Json;
  /** copy: the source bigmap. */
  sourceId?: number;
}

export interface ExpectedBigmap {
  id: number;
  contract: string | null;
  /** Null when the receipts never showed its allocation. */
  allocHeight: number | null;
  keyType?: Json;
  valueType?: Json;
  nUpdates: number;
  updateHeight: number;
  deleteHeight: number | null;
  /** Live keys by hash. */
  keys: Map<string, { key: Json; value: Json; height: number }>;
}

/** The operation (or implicit result) a change came with. */
interface Origin {
  level: number;
  op: string | null;
  sender?: string;
  source?: string;
}

interface Temporary {
  keyType?: Json;
  valueType?: Json;
  keys: Map<string, { key: Json; value: Json }>;
}

/** A change read straight off a receipt, `lazy_storage_diff` or legacy `big_map_diff`. */
type Change =
  | { kind: 'alloc'; id: number; keyType: Json; valueType: Json }
  | { kind: 'copy'; id: number; source: number }
  | { kind: 'clear'; id: number }
  | { kind: 'set'; id: number; hash: string; key: Json; value: Json }
  | { kind: 'unset'; id: number; hash: string; key: Json };

const byHash = <T extends { hash: string }>(a: T, b: T): number => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

/**
 * What the bigmap tables must hold, worked out from raw block JSON alone: applied results only, in
 * block order (contents, each followed by its internal results, then the implicit results);
 * temporary bigmaps (negative ids) live for one content and its internal results; a copy brings the
 * source's live keys (an `update` each, by hash), a removal deletes them (a `remove` each, by hash).
 */
export class ReceiptBigmaps {
  readonly updates: ExpectedUpdate[] = [];
  readonly bigmaps = new Map<number, ExpectedBigmap>();
  /** Levels at which the receipts touched each key: `${id}:${hash}` → levels. */
  readonly touches = new Map<string, number[]>();

  apply(block: Json): void {
    const level: number = block.header.level;
    for (const group of (block.operations ?? []).flat()) {
      for (const content of group.contents ?? []) {
        const temporary = new Map<number, Temporary>();
        const results = [{ op: content, result: content.metadata?.operation_result }];
        for (const i of content.metadata?.internal_operation_results ?? []) results.push({ op: i, result: i.result });
        for (const { op, result } of results) {
          const origin: Origin = { level, op: group.hash, sender: op.source, source: content.source };
          this.applyResult(origin, ownerOf(op, result), result, temporary);
        }
      }
    }
    // Implicit results (migrations, genesis) carry no status: they happened.
    for (const result of block.metadata?.implicit_operations_results ?? []) {
      this.applyResult(
        { level, op: null },
        result.originated_contracts?.[0] ?? null,
        { status: 'applied', ...result },
        new Map(),
      );
    }
  }

  private applyResult(
    origin: Origin,
    owner: string | null,
    result: Json | undefined,
    temporary: Map<number, Temporary>,
  ): void {
    if (result?.status !== 'applied') return;
    for (const c of changesOf(result)) {
      if (c.id < 0) this.applyTemporary(c, temporary);
      else this.applyPermanent(origin, owner, c, temporary);
    }
  }

  private applyTemporary(c: Change, temporary: Map<number, Temporary>): void {
    const map = (id: number): Temporary => temporary.get(id) ?? temporary.set(id, { keys: new Map() }).get(id)!;
    if (c.kind === 'alloc') temporary.set(c.id, { keyType: c.keyType, valueType: c.valueType, keys: new Map() });
    else if (c.kind === 'copy') {
      const source = c.source < 0 ? map(c.source) : this.bigmaps.get(c.source);
      temporary.set(c.id, { keyType: source?.keyType, valueType: source?.valueType, keys: new Map(source?.keys) });
    } else if (c.kind === 'clear') temporary.delete(c.id);
    else if (c.kind === 'set') map(c.id).keys.set(c.hash, { key: c.key, value: c.value });
    else map(c.id).keys.delete(c.hash);
  }

  private applyPermanent(origin: Origin, owner: string | null, c: Change, temporary: Map<number, Temporary>): void {
    const { level, op, sender, source } = origin;
    const push = (u: Omit<ExpectedUpdate, 'height' | 'op'>): void => {
      this.updates.push({ ...u, height: level, op, sender, source });
      if (u.hash !== undefined)
        this.touches.set(`${u.bigmap_id}:${u.hash}`, [...(this.touches.get(`${u.bigmap_id}:${u.hash}`) ?? []), level]);
    };
    const create = (keyType: Json | undefined, valueType: Json | undefined): ExpectedBigmap => {
      const m: ExpectedBigmap = {
        id: c.id,
        contract: owner,
        allocHeight: level,
        keyType,
        valueType,
        nUpdates: 0,
        updateHeight: level,
        deleteHeight: null,
        keys: new Map(),
      };
      this.bigmaps.set(c.id, m);
      return m;
    };
    // A bigmap allocated before the first block given: known from its first change on.
    const existing = (): ExpectedBigmap => {
      const m = this.bigmaps.get(c.id) ?? { ...create(undefined, undefined), allocHeight: null };
      this.bigmaps.set(c.id, m);
      m.updateHeight = level;
      return m;
    };
    switch (c.kind) {
      case 'alloc':
        create(c.keyType, c.valueType);
        push({ bigmap_id: c.id, action: 'alloc', keyType: c.keyType, valueType: c.valueType });
        return;
      case 'copy': {
        const source = c.source < 0 ? temporary.get(c.source) : this.bigmaps.get(c.source);
        const m = create(source?.keyType, source?.valueType);
        push({
          bigmap_id: c.id,
          action: 'copy',
          keyType: source?.keyType,
          valueType: source?.valueType,
          sourceId: c.source,
        });
        const keys = [...(source?.keys ?? new Map<string, { key: Json; value: Json }>())]
          .map(([hash, e]) => ({ hash, ...e }))
          .sort(byHash);
        for (const k of keys) {
          m.keys.set(k.hash, { key: k.key, value: k.value, height: level });
          push({ bigmap_id: c.id, action: 'update', hash: k.hash, key: k.key, value: k.value });
        }
        m.nUpdates = keys.length;
        return;
      }
      case 'set': {
        const m = existing();
        m.keys.set(c.hash, { key: c.key, value: c.value, height: level });
        m.nUpdates++;
        push({ bigmap_id: c.id, action: 'update', hash: c.hash, key: c.key, value: c.value });
        return;
      }
      case 'unset': {
        const m = existing();
        m.keys.delete(c.hash);
        m.nUpdates++;
        push({ bigmap_id: c.id, action: 'remove', hash: c.hash, key: c.key });
        return;
      }
      case 'clear': {
        const m = existing();
        const keys = [...m.keys].map(([hash, e]) => ({ hash, ...e })).sort(byHash);
        for (const k of keys) push({ bigmap_id: c.id, action: 'remove', hash: k.hash, key: k.key });
        push({ bigmap_id: c.id, action: 'remove' });
        m.keys.clear();
        m.nUpdates += keys.length;
        m.deleteHeight = level;
      }
    }
  }
}

/** The contract whose storage a result changed: the originated one, or the destination. */
function ownerOf(op: Json, result: Json | undefined): string | null {
  return op.kind === 'origination' ? (result?.originated_contracts?.[0] ?? null) : (op.destination ?? null);
}

function changesOf(result: Json): Change[] {
  const out: Change[] = [];
  if (Array.isArray(result.lazy_storage_diff)) {
    for (const item of result.lazy_storage_diff) {
      if (item.kind !== 'big_map') continue;
      const id = Number(item.id);
      const d = item.diff;
      if (d.action === 'remove') {
        out.push({ kind: 'clear', id });
        continue;
      }
      if (d.action === 'alloc') out.push({ kind: 'alloc', id, keyType: d.key_type, valueType: d.value_type });
      if (d.action === 'copy') out.push({ kind: 'copy', id, source: Number(d.source) });
      for (const u of d.updates ?? []) out.push(keyChange(id, u));
    }
    return out;
  }
  for (const d of result.big_map_diff ?? []) {
    if (d.action === 'alloc')
      out.push({ kind: 'alloc', id: Number(d.big_map), keyType: d.key_type, valueType: d.value_type });
    else if (d.action === 'copy')
      out.push({ kind: 'copy', id: Number(d.destination_big_map), source: Number(d.source_big_map) });
    else if (d.action === 'remove') out.push({ kind: 'clear', id: Number(d.big_map) });
    else out.push(keyChange(Number(d.big_map), d));
  }
  return out;
}

function keyChange(id: number, u: Json): Change {
  return u.value === undefined || u.value === null
    ? { kind: 'unset', id, hash: u.key_hash, key: u.key }
    : { kind: 'set', id, hash: u.key_hash, key: u.key, value: u.value };
}
