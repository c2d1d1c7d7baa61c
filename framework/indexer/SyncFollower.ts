import type { Knex } from 'knex';
import type { ChainState } from './ChainState';
import type { Logger } from '../util/Logger';
import type { IndexerStatus } from './IndexerStatus';
import { SyncState } from './SyncState';

/**
 * On read-only API replicas: follows the cursor the indexer commits to the shared database, so the
 * chain height of response headers, head-relative cache lifetimes and confirmations stay current
 * without an indexer in this process.
 */
export class SyncFollower {
  private readonly sync = new SyncState();
  private timer?: NodeJS.Timeout;
  private failing = false;

  constructor(
    private readonly db: Knex,
    private readonly chain: ChainState,
    private readonly status: IndexerStatus,
    private readonly log: Logger,
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
      if (!cursor || cursor.height === this.chain.height) return;
      this.chain.update({ height: cursor.height, networkId: cursor.chainId });
      this.status.setIndexed(cursor.height);
    } catch (e) {
      // Before the indexer's first migration the table is missing; say so once, keep polling.
      if (!this.failing) this.log.warn({ err: (e as Error).message }, 'cannot read the sync state; retrying');
      this.failing = true;
    }
  }
}
