import { Counter } from 'prom-client';
import type { Logger } from '../util/Logger';
import type { IndexerStatus } from './IndexerStatus';

/**
 * Why: no value found on chain may stop indexing. A handler that meets a value it cannot decode or
 * store (bytes that are no text, an integer past its column, a document Postgres refuses) keeps a
 * null or raw field, goes on, and says so here: a warning and `tzidx_undecodable_values_total`.
 */
export class UndecodableValues {
  private readonly counter: Counter<'plugin' | 'kind'>;

  constructor(status: IndexerStatus, private readonly log: Logger) {
    this.counter = new Counter({
      name: 'tzidx_undecodable_values_total',
      help: 'chain values a plugin could not decode or store, kept as null or raw, by plugin and kind',
      labelNames: ['plugin', 'kind'],
      registers: [status.registry],
    });
  }

  record(plugin: string, kind: string, detail: Record<string, unknown>): void {
    this.counter.inc({ plugin, kind });
    this.log.warn({ plugin, kind, ...detail }, 'chain value not decodable: kept as null or raw');
  }
}
