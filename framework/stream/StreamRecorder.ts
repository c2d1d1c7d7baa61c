import { Knex } from 'knex';
import { mutezToTez } from '../catalog/types/MoneyType';
import { clientOperationType, type NormalizedBlock, type NormalizedOperation } from '../chain';
import type { HandlerRegistry, IndexContext } from '../indexer/IndexContext';
import type { DatabaseKind } from '../storage/Database';
import { META_SCHEMA } from '../storage/SchemaMigrator';
import { NewStreamEvent, StreamLog } from './StreamLog';

/** Events the framework itself writes, and the control messages a client may receive. */
const BUILTIN_EVENT_TYPES: readonly string[] = ['block', 'operation', 'rollback'];
const RESERVED_EVENT_TYPES: readonly string[] = [...BUILTIN_EVENT_TYPES, 'dropped', 'reset'];

/**
 * Turns what the indexer commits into stream events, inside the same transaction: a `block` event per
 * block, an `operation` event per operation of live blocks (while catching up only blocks: nobody
 * follows a backfill operation by operation), plugin events handed to `publish`, and a `rollback`
 * event naming the blocks and operations a reorg took back. After the commit the local hub is told;
 * on Postgres a NOTIFY (delivered at commit) tells the replicas.
 */
export class StreamRecorder {
  private pending: NewStreamEvent[] = [];
  /** What `types` may name: the built-in events and those plugins declared. */
  private readonly types = new Set<string>(BUILTIN_EVENT_TYPES);
  /** The batch being recorded, known by its reader (one per batch transaction). */
  private batch?: unknown;

  constructor(
    private readonly kind: DatabaseKind,
    private readonly committed: () => void,
    /** Events kept for Last-Event-ID resume. */
    readonly keep = 50_000,
  ) {}

  attach(registry: HandlerRegistry): void {
    registry.onBlock((block, ctx) => {
      this.begin(ctx.read);
      this.pending.push({ type: 'block', height: block.level, data: blockData(block) });
      if (ctx.mode === 'live')
        for (const op of block.operations)
          this.pending.push({ type: 'operation', height: block.level, data: operationData(block, op) });
    });
    registry.afterBatch((trx) => this.flush(trx, this.take()));
    registry.beforeRollback(async (trx, height) => {
      const blocks: Array<{ height: string | number; hash: string }> = await trx(`${META_SCHEMA}.block_hashes`)
        .where('height', '>', height)
        .orderBy('height')
        .select('height', 'hash');
      const data = {
        height,
        blocks: blocks.map((b) => ({ level: Number(b.height), hash: b.hash })),
        operations: await StreamLog.operationsAbove(trx, height),
      };
      await this.flush(trx, [{ type: 'rollback', height, data }]);
    });
  }

  /**
   * A plugin names, at setup, each event type it will publish: so that every instance (replicas too)
   * knows it and a `types` filter naming anything else is a client's mistake, answered with a 400.
   */
  declare(type: string): void {
    if (RESERVED_EVENT_TYPES.includes(type)) throw new Error(`stream event type '${type}' is reserved`);
    if (!/^[a-z][a-z0-9_]*$/.test(type)) throw new Error(`stream event type '${type}' is not a lowercase identifier`);
    this.types.add(type);
  }

  /** The event types a `types` filter may name. */
  get eventTypes(): ReadonlySet<string> {
    return this.types;
  }

  /** A plugin's event (e.g. a DEX trade), committed and streamed with the block being indexed. */
  publish(ctx: IndexContext, type: string, data: Record<string, unknown>): void {
    if (!this.types.has(type) || BUILTIN_EVENT_TYPES.includes(type))
      throw new Error(`stream event type '${type}' was not declared (StreamRecorder.declare)`);
    this.begin(ctx.read);
    this.pending.push({ type, height: ctx.block.level, data: { level: ctx.block.level, ...data } });
  }

  /** A new transaction: whatever a failed one left behind is dropped. */
  private begin(batch: unknown): void {
    if (this.batch === batch) return;
    this.batch = batch;
    this.pending = [];
  }

  private take(): NewStreamEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  private async flush(trx: Knex.Transaction, events: NewStreamEvent[]): Promise<void> {
    if (events.length === 0) return;
    await StreamLog.append(trx, events, this.keep);
    if (this.kind === 'postgres') await trx.raw('select pg_notify(?, ?)', [StreamLog.channel, '']);
    trx.executionPromise.then(this.committed, () => undefined);
  }
}

function blockData(b: NormalizedBlock): Record<string, unknown> {
  return {
    level: b.level,
    hash: b.hash,
    predecessor: b.predecessor,
    time: new Date(b.time).toISOString(),
    cycle: b.cycle,
    protocol: b.protocol,
    baker: b.baker ?? null,
    n_ops: b.operations.length,
  };
}

/** An `operation` event's data. */
export function operationData(b: NormalizedBlock, op: NormalizedOperation): Record<string, unknown> {
  const roles = [
    op.sender,
    op.receiver,
    op.source,
    op.creator,
    op.baker,
    op.accuser,
    op.offender,
    ...op.originatedContracts,
  ];
  return {
    level: b.level,
    block: b.hash,
    hash: op.hash || null,
    // As `/tables/op` names it (op_type filters by it), the node's kind beside it.
    type: clientOperationType(op.type),
    kind: op.kind,
    status: op.status,
    op_n: op.opN,
    op_p: op.opP,
    is_internal: op.isInternal,
    sender: op.sender ?? null,
    receiver: op.receiver ?? null,
    entrypoint: op.entrypoint ?? null,
    volume: mutezToTez(op.volume),
    fee: mutezToTez(op.fee),
    addresses: [...new Set(roles.filter((a): a is string => typeof a === 'string'))],
  };
}
