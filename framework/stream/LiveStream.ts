import type { Knex } from 'knex';
import type { RouteRegistry } from '../http/RouteRegistry';
import type { HandlerRegistry } from '../indexer/IndexContext';
import type { Database } from '../storage/Database';
import type { Logger } from '../util/Logger';
import { NotifyListener } from './NotifyListener';
import { DEFAULT_STREAM_LIMITS, StreamHub, StreamLimits } from './StreamHub';
import { StreamLog } from './StreamLog';
import { StreamRecorder } from './StreamRecorder';
import { mountStream } from './StreamRoutes';

/**
 * The live stream of one instance: the recorder on the indexer's dispatcher (writing instances), the
 * hub serving /stream, and on Postgres replicas the LISTEN that wakes the hub. On PGlite everything
 * is in process: the recorder tells the hub after each commit. A hot standby (in recovery) refuses
 * LISTEN and receives no NOTIFY: there the replica's sync follower wakes the hub when the committed
 * height moves (`standby`).
 */
export class LiveStream {
  private constructor(
    readonly hub: StreamHub,
    readonly recorder: StreamRecorder,
    readonly listener?: NotifyListener,
    /** On a Postgres hot standby: woken by the committed height, not by NOTIFY. */
    readonly standby = false,
  ) {}

  static async open(
    db: Database,
    opts: { readOnly: boolean; databaseUrl?: string; log: Logger; limits?: Partial<StreamLimits> },
  ): Promise<LiveStream> {
    if (!opts.readOnly) await StreamLog.migrate(db.writer);
    const hub = new StreamHub(db.reader, opts.log, { ...DEFAULT_STREAM_LIMITS, ...opts.limits });
    const recorder = new StreamRecorder(db.kind, () => hub.notify());
    const replica = opts.readOnly && opts.databaseUrl !== undefined;
    const standby = replica && (await inRecovery(db.reader));
    if (standby) opts.log.info('on a hot standby: /stream follows the committed height (NOTIFY does not reach it)');
    const listener =
      replica && !standby ? new NotifyListener(opts.databaseUrl!, () => hub.notify(), opts.log) : undefined;
    return new LiveStream(hub, recorder, listener, standby);
  }

  attach(dispatcher: HandlerRegistry): void {
    this.recorder.attach(dispatcher);
  }

  mount(routes: RouteRegistry): void {
    mountStream(routes, this.hub, this.recorder.eventTypes);
  }

  async start(): Promise<void> {
    await this.hub.start();
    await this.listener?.start();
  }

  async close(): Promise<void> {
    await this.hub.stop();
    await this.listener?.stop();
  }
}

async function inRecovery(db: Knex): Promise<boolean> {
  const r = await db.raw<{ rows: Array<{ standby: boolean }> }>('select pg_is_in_recovery() as standby');
  return r.rows[0].standby === true;
}
