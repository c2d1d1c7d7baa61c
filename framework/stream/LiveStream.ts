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
 * is in process: the recorder tells the hub after each commit.
 */
export class LiveStream {
  private constructor(
    readonly hub: StreamHub,
    readonly recorder: StreamRecorder,
    readonly listener?: NotifyListener,
  ) {}

  static async open(
    db: Database,
    opts: { readOnly: boolean; databaseUrl?: string; log: Logger; limits?: Partial<StreamLimits> },
  ): Promise<LiveStream> {
    if (!opts.readOnly) await StreamLog.migrate(db.writer);
    const hub = new StreamHub(db.reader, opts.log, { ...DEFAULT_STREAM_LIMITS, ...opts.limits });
    const recorder = new StreamRecorder(db.kind, () => hub.notify());
    const listener =
      opts.readOnly && opts.databaseUrl
        ? new NotifyListener(opts.databaseUrl, () => hub.notify(), opts.log)
        : undefined;
    return new LiveStream(hub, recorder, listener);
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
