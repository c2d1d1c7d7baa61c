import { expect } from 'chai';
import { Client } from 'pg';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { expectSameTables } from '../support/TableSnapshot';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';

const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]);
const enabled = ['core-chain', 'bigmaps', 'governance'];
/** Levels at which, inside the batch's transaction, every other backend of the database is terminated (once). */
const DROP_AT = [5, 17, 18, 31];

/**
 * Issue #51: the indexer (`tzidx start`) whose database connections are terminated in the middle of
 * batches retries them from the committed tip: no unhandled error, no stop, tables equal a clean run.
 */
describe(`indexer: database connections terminated mid-batch (${BACKEND}; Postgres only)`, function () {
  this.timeout(180_000);

  it('retries the batches and ends with the tables of a clean run', async function () {
    if (BACKEND !== 'postgres') this.skip();
    const chain = new SandboxChain({ seed: 'connection-loss', profile: 'tiny' });
    chain.bake(40);
    const t = await startTestInstance({ plugins, enabled, config: { batchBlocks: 4 } });
    const clean = await startTestInstance({ plugins, enabled, config: { batchBlocks: 4 } });
    const admin = new Client({ connectionString: t.app.config.databaseUrl });
    await admin.connect();
    try {
      const pending = new Set(DROP_AT);
      let dropped = 0;
      t.app.dispatcher.onBlock(async (block) => {
        if (!pending.delete(block.level)) return;
        const r = await admin.query<{ n: number }>(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()`,
        );
        dropped += r.rows[0].n;
      });
      const status = await indexSandbox(t, chain);
      expect(pending.size, 'levels whose drop did not happen').to.equal(0);
      expect(dropped).to.be.at.least(DROP_AT.length);
      expect(status.status, status.lastError).to.not.equal('failed');
      expect(status.indexed).to.equal(chain.headLevel);
      expect(t.app.container.resolve(IndexerStatus).indexed).to.equal(chain.headLevel);
      await indexSandbox(clean, chain);
      await expectSameTables(t, clean);
    } finally {
      await admin.end();
      await t.close();
      await clean.close();
    }
  });
});
