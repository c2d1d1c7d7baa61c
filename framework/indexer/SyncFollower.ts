import type { Knex } from 'knex';
import type { ChainState } from './ChainState';
import type { Logger } from '../util/Logger';
import type { IndexerStatus } from './IndexerStatus';
import { SyncState } from './SyncState';

/**
 * On read-only API replicas: follows the cursor the indexer commits to the shared database, so the
 * chain height of response headers, head-relative cache lifetimes and confirmations stay current
 * without an indexer in this process. Each new cursor (height or hash: a reorg) is announced to
 * `onAdvance`: on a hot standby, where no NOTIFY arrives, that is what wakes /stream.
 */
export class SyncFollower {
  private readonly sync = new SyncState();
  private timer?: NodeJS.Timeout;
  private failing = false;
  private hash?: string;

  constructor(
    private readonly db: Knex,
    private readonly chain: ChainState,
    private readonly status: IndexerStatus,
    private readonly log: Logger,
    private readonly onAdvance: () => void = () => undefined,
    private readonly intervalMs = 1000,
  ) {}

  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    try {
      const cursor = await this.sync.read(this.db);
      if (this.failing) this.log.info('sync state readable again');
      this.failing = false;
      if (!cursor || (cursor.height === this.chain.height && cursor.hash === this.hash)) return;
      this.hash = cursor.hash;
      const { head } = cursor;
      this.chain.update({ height: cursor.height, networkId: cursor.chainId });
      // What the indexer's own API tells clients, so a replica's headers and cache lifetimes are the same.
      if (head)
        this.chain.update({
          protocol: head.protocol,
          headTime: head.time,
          blockInterval: head.blockInterval,
          finalDepth: head.finalDepth,
        });
      this.status.setIndexed(cursor.height);
      this.onAdvance();
    } catch (e) {
      // Before the indexer's first migration the table is missing; say so once, keep polling.
      if (!this.failing) this.log.warn({ err: (e as Error).message }, 'cannot read the sync state; retrying');
      this.failing = true;
    }
  }
}
