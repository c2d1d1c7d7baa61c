import { TzidxApp } from '../../framework/app/TzidxApp';
import { PluginClass } from '../../framework/plugins/Plugin';
import { silentLogger } from '../../framework/util/Logger';
import { BACKEND } from './TestDatabase';
import { TestInstance } from './TestInstance';

export interface ReplicaPair {
  indexer: TestInstance;
  replica: TzidxApp;
  /** The replica's API. */
  url: string;
}

/**
 * An indexing instance and an in-process `tzidx serve` replica (read-only sessions) on its database,
 * opened before the mocha block's tests and closed after them; `pair()` is valid inside the tests.
 * Postgres only: a replica shares a database server with the indexer, an in-process PGlite cannot be
 * shared, so on PGlite the block's tests are skipped.
 */
export function replicaPair(
  indexer: () => Promise<TestInstance>,
  available: readonly PluginClass[],
): () => ReplicaPair {
  let pair: Partial<ReplicaPair> = {};
  before(async function () {
    if (BACKEND !== 'postgres') this.skip();
    pair.indexer = await indexer();
    pair.replica = await TzidxApp.create(pair.indexer.app.config, { log: silentLogger, available, readOnly: true });
    pair.url = (await pair.replica.api.listen(0, '127.0.0.1')).url;
  });
  after(async () => {
    await pair.replica?.close();
    await pair.indexer?.close();
    pair = {};
  });
  return () => pair as ReplicaPair;
}
