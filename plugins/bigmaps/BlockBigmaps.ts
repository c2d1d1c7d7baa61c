import {
  type BigMapDiff,
  type Entity,
  type EntityStore,
  type IndexContext,
  type KeyedRow,
  type Logger,
  type NormalizedBlock,
  type NormalizedOperation,
  asString,
} from '../../framework';
import { ACCOUNT_IDS, opId } from '../core-chain';
import { athensBigmapId } from './AthensBigmaps';
import { BigmapTypes, KeyValueTypes } from './BigmapTypes';
import { keyId } from './KeyHash';
import type { LiveEntry, LiveValues } from './LiveValues';
import { bigOrZero, encodeMicheline } from '../../framework';
import { tables, type BigmapsRow } from './tables.generated';

/** A bigmap with a negative id: it exists only while one operation and its internal operations run. */
interface TemporaryBigmap {
  keyType: string | null;
  valueType: string | null;
  entries: Map<string, LiveEntry>;
}

type Action = 'update' | 'remove' | 'copy' | 'alloc';

const hexOf = (expr: unknown): string | null =>
  expr === undefined || expr === null ? null : (encodeMicheline(expr)?.toString('hex') ?? null);

/** The permanent bigmaps the blocks' applied operations change or copy, and the keys they update or remove. */
export function touchedBigmaps(blocks: readonly NormalizedBlock[]): {
  ids: Set<string>;
  keys: Array<{ bigmapId: number; hash: string }>;
} {
  const ids = new Set<string>();
  const keys: Array<{ bigmapId: number; hash: string }> = [];
  for (const block of blocks) {
    for (const op of block.operations) {
      if (op.status !== 'applied') continue;
      for (const d of op.bigMapDiffs) {
        const id = d.bigMapId ?? athensBigmapId(op.receiver);
        if (id === undefined || id < 0) continue;
        ids.add(String(id));
        if (d.action === 'copy' && d.sourceBigMapId !== undefined && d.sourceBigMapId >= 0)
          ids.add(String(d.sourceBigMapId));
        if ((d.action === 'update' || d.action === 'remove') && d.keyHash !== undefined)
          keys.push({ bigmapId: id, hash: d.keyHash });
      }
    }
  }
  return { ids, keys };
}

/**
 * The bigmap changes of one block. Applied operations only, in block order: every change of a
 * permanent bigmap becomes a bigmap_updates row (a copy also one `update` row per key it brings, a
 * removal one `remove` row per key it deletes) and moves the bigmap's counters; temporary bigmaps
 * (negative ids, renumbered by every operation) are followed in memory only, for the copies that
 * turn them into permanent ones.
 */
export class BlockBigmaps {
  private readonly bigmaps: EntityStore<BigmapsRow, 'bigmap_id'>;
  private readonly types: BigmapTypes;
  private readonly time: Date;
  private temporary = new Map<number, TemporaryBigmap>();

  constructor(
    private readonly block: NormalizedBlock,
    private readonly ctx: IndexContext,
    private readonly live: LiveValues,
    private readonly log: Logger,
  ) {
    this.bigmaps = ctx.entities(tables.bigmaps, 'bigmap_id');
    this.types = new BigmapTypes(ctx);
    this.time = new Date(block.time);
  }

  async run(): Promise<void> {
    for (const op of this.block.operations) {
      if (!op.isInternal) this.temporary = new Map();
      if (op.status !== 'applied') continue;
      if (op.type === 'origination' && athensBigmapId(op.receiver) !== undefined) await this.allocAthens(op);
      for (const diff of op.bigMapDiffs) await this.apply(op, diff);
    }
  }

  private async apply(op: NormalizedOperation, diff: BigMapDiff): Promise<void> {
    const id = diff.bigMapId ?? (await this.athensId(op));
    if (id === undefined) return;
    switch (diff.action) {
      case 'alloc': {
        const types = await this.types.annotated(op, { keyType: diff.keyType, valueType: diff.valueType });
        if (id < 0)
          this.temporary.set(id, {
            keyType: hexOf(types.keyType),
            valueType: hexOf(types.valueType),
            entries: new Map(),
          });
        else await this.alloc(op, id, types);
        return;
      }
      case 'copy':
        if (diff.sourceBigMapId === undefined)
          this.log.warn({ block: this.block.level, op: op.hash, bigmap: id }, 'bigmaps: copy without a source ignored');
        else await this.copy(op, diff.sourceBigMapId, id);
        return;
      case 'update':
      case 'remove': {
        if (diff.action === 'remove' && diff.key === undefined && diff.keyHash === undefined) {
          if (id < 0) this.temporary.delete(id);
          else await this.removeBigmap(op, id);
          return;
        }
        const entry = this.entryOf(op, id, diff);
        if (!entry) return;
        if (id < 0) {
          const map = this.temporaryMap(id);
          if (diff.action === 'update') map.entries.set(entry.hash, entry);
          else map.entries.delete(entry.hash);
        } else if (diff.action === 'update') await this.setKey(op, id, entry);
        else await this.removeKey(op, id, entry);
      }
    }
  }

  /** A diff's key as a live entry (value empty for removals); undefined, with a warning, when it cannot be stored. */
  private entryOf(
    op: NormalizedOperation,
    id: number,
    diff: Extract<BigMapDiff, { action: 'update' | 'remove' }>,
  ): LiveEntry | undefined {
    const key = hexOf(diff.key);
    const value = diff.action === 'update' ? hexOf(diff.value) : '';
    if (diff.keyHash === undefined || key === null || value === null) {
      this.log.warn(
        { block: this.block.level, op: op.hash, bigmap: id },
        'bigmaps: key change without key hash or with unknown Micheline ignored',
      );
      return undefined;
    }
    return { hash: diff.keyHash, key, value };
  }

  private async alloc(op: NormalizedOperation, id: number, types: KeyValueTypes): Promise<void> {
    const keyType = hexOf(types.keyType);
    const valueType = hexOf(types.valueType);
    await this.create(op, id, keyType, valueType);
    this.append(op, id, 'alloc', { key: keyType, value: valueType });
  }

  private async copy(op: NormalizedOperation, sourceId: number, id: number): Promise<void> {
    const source = sourceId < 0 ? this.temporaryMap(sourceId) : await this.permanent(sourceId);
    const entries = [...source.entries.values()];
    if (id < 0) {
      this.temporary.set(id, { ...source, entries: new Map(source.entries) });
      return;
    }
    const row = await this.create(op, id, source.keyType, source.valueType);
    this.append(op, id, 'copy', { keyId: BigInt(sourceId), key: source.keyType, value: source.valueType });
    for (const e of entries) {
      this.live.set(id, e);
      this.appendKey(op, id, 'update', e);
    }
    this.bigmaps.update(row, { n_keys: BigInt(entries.length), n_updates: BigInt(entries.length) });
  }

  private async setKey(op: NormalizedOperation, id: number, entry: LiveEntry): Promise<void> {
    const row = await this.row(op, id);
    const had = await this.live.get(id, entry.hash);
    this.live.set(id, entry);
    this.appendKey(op, id, 'update', entry);
    this.touch(row, { n_updates: bigOrZero(row.n_updates) + 1n, n_keys: bigOrZero(row.n_keys) + (had ? 0n : 1n) });
  }

  private async removeKey(op: NormalizedOperation, id: number, entry: LiveEntry): Promise<void> {
    const row = await this.row(op, id);
    const had = await this.live.get(id, entry.hash);
    this.live.remove(id, entry.hash);
    this.appendKey(op, id, 'remove', entry);
    this.touch(row, { n_updates: bigOrZero(row.n_updates) + 1n, n_keys: bigOrZero(row.n_keys) - (had ? 1n : 0n) });
  }

  /** The whole bigmap goes: one `remove` per live key, then one for the bigmap. */
  private async removeBigmap(op: NormalizedOperation, id: number): Promise<void> {
    const row = await this.row(op, id);
    const entries = await this.live.entries(id);
    this.live.empty(id);
    for (const e of entries) this.appendKey(op, id, 'remove', e);
    this.append(op, id, 'remove', {});
    const at = { height: this.block.level, time: this.time, block: this.block.hash };
    this.touch(row, {
      n_updates: bigOrZero(row.n_updates) + BigInt(entries.length),
      n_keys: 0n,
      delete_height: at.height,
      delete_time: at.time,
      delete_block: at.block,
    });
  }

  /** A permanent bigmap as a copy source: its types and live keys. */
  private async permanent(id: number): Promise<TemporaryBigmap> {
    const row = await this.bigmaps.get(String(id));
    const entries = await this.live.entries(id);
    return {
      keyType: asString(row?.key_type) ?? null,
      valueType: asString(row?.value_type) ?? null,
      entries: new Map(entries.map((e) => [e.hash, e])),
    };
  }

  private temporaryMap(id: number): TemporaryBigmap {
    let map = this.temporary.get(id);
    // Not allocated in this operation as far as the receipts tell: an empty map of unknown types.
    if (!map) this.temporary.set(id, (map = { keyType: null, valueType: null, entries: new Map() }));
    return map;
  }

  /**
   * The bigmaps row of a permanent bigmap; one allocated before the first indexed block is created on first sight, its
   * allocation unknown.
   */
  private async row(op: NormalizedOperation, id: number): Promise<Entity> {
    return (await this.bigmaps.get(String(id))) ?? this.bigmaps.insert(this.newRow(op, id, null, null, false));
  }

  /**
   * A bigmap allocated (or copied into) by this operation. Ids are never reused on a chain; a repeated one (recordings
   * of several networks in one index) keeps its row.
   */
  private async create(
    op: NormalizedOperation,
    id: number,
    keyType: string | null,
    valueType: string | null,
  ): Promise<Entity> {
    const existing = await this.bigmaps.get(String(id));
    if (existing) {
      this.log.warn(
        { block: this.block.level, op: op.hash, bigmap: id },
        'bigmaps: bigmap id allocated again; keeping its row',
      );
      this.touch(existing, { key_type: keyType, value_type: valueType });
      return existing;
    }
    this.live.empty(id);
    return this.bigmaps.insert(this.newRow(op, id, keyType, valueType, true));
  }

  private newRow(
    op: NormalizedOperation,
    id: number,
    keyType: string | null,
    valueType: string | null,
    allocated: boolean,
  ): KeyedRow<BigmapsRow, 'bigmap_id'> {
    const contract = op.receiver ?? null;
    const accounts = this.ctx.shared.get(ACCOUNT_IDS);
    const { level, hash } = this.block;
    return {
      // The entity store keys rows by string.
      bigmap_id: String(id),
      account_id: (contract ? accounts?.get(contract) : undefined) ?? null,
      alloc_height: allocated ? level : null,
      n_updates: 0n,
      n_keys: 0n,
      update_height: level,
      delete_height: null,
      contract,
      alloc_time: allocated ? this.time : null,
      alloc_block: allocated ? hash : null,
      update_time: this.time,
      update_block: hash,
      delete_time: null,
      delete_block: null,
      key_type: keyType,
      value_type: valueType,
    };
  }

  private touch(row: Entity, patch: Partial<BigmapsRow>): void {
    this.bigmaps.update(row, {
      ...patch,
      update_height: this.block.level,
      update_time: this.time,
      update_block: this.block.hash,
    });
  }

  private appendKey(op: NormalizedOperation, id: number, action: 'update' | 'remove', e: LiveEntry): void {
    this.append(op, id, action, {
      keyId: keyId(e.hash),
      key: e.key,
      value: action === 'update' ? e.value : null,
      hash: e.hash,
    });
  }

  private append(
    op: NormalizedOperation,
    id: number,
    action: Action,
    f: { keyId?: bigint; key?: string | null; value?: string | null; hash?: string },
  ): void {
    this.ctx.append(tables.bigmap_updates, {
      bigmap_id: id,
      key_id: f.keyId ?? null,
      action,
      op_id: opId(this.block.level, op.opN),
      height: this.block.level,
      time: this.time,
      key: f.key ?? null,
      value: f.value ?? null,
      op: op.hash === '' ? null : op.hash,
      hash: f.hash ?? null,
    });
  }

  /**
   * A pre-Babylon diff (no id): the contract's only bigmap, allocated on first sight with the storage's bigmap type.
   */
  private async athensId(op: NormalizedOperation): Promise<number | undefined> {
    const id = athensBigmapId(op.receiver);
    if (id === undefined) {
      this.log.warn(
        { block: this.block.level, op: op.hash, contract: op.receiver },
        'bigmaps: bigmap change without id of an unknown pre-Babylon contract ignored',
      );
      return undefined;
    }
    await this.allocAthens(op);
    return id;
  }

  private async allocAthens(op: NormalizedOperation): Promise<void> {
    const id = athensBigmapId(op.receiver)!;
    if (await this.bigmaps.get(String(id))) return;
    const types = await this.types.first(op);
    await this.alloc(op, id, types ?? { keyType: undefined, valueType: undefined });
  }
}
