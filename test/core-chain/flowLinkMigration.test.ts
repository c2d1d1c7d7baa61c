import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import {
  chainBlocks,
  denunciationsOf,
  expectFlowLinks,
  expectOpRows,
  slashingsOf,
} from '../explorer/support/slashings';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Why: a database created before flows named their denunciation (`flow.delayed_op_id`) must keep
// working: the migration adds the column (null in the rows already there) and indexing goes on,
// linking the slashings it meets from then on. Seed 'explorer': the end of cycle 4 (level 40) slashes
// two denunciations of cycle 3, whose figures come from the sandbox's RPC JSON.
describe(`core-chain: a database of the schema before flow.delayed_op_id (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;
  after(async () => t?.close());

  it('is migrated (the column added, rows kept) and indexes the slashings linked', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(48);
    const blocks = chainBlocks(chain);
    const slashings = slashingsOf(blocks);
    const first = Math.min(...[...slashings.values()].map((s) => s.level));
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    await indexSandbox(t, chain, { toLevel: first - 1 });
    // The previous schema: no column, and the definition it was migrated to.
    const db = t.app.db.writer;
    await db.raw('alter table core_chain.flow drop column delayed_op_id');
    await db.raw(`update tzidx.schema_version set definition_hash = 'before' where table_code = 'flow'`);
    const [{ n: flows }] = (await db.raw('select count(*)::int as n from core_chain.flow')).rows;

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.deep.equal(['flow']);
    const count = 'select count(*)::int as n, count(delayed_op_id)::int as linked from core_chain.flow';
    const [kept] = (await db.raw(count)).rows;
    expect(kept).to.deep.equal({ n: flows, linked: 0 });

    await indexSandbox(t, chain);
    const denunciations = denunciationsOf(blocks);
    expect(denunciations.filter((d) => slashings.get(d.hash)?.level === first).length).to.be.at.least(2);
    await expectOpRows(t, denunciations, slashings);
    await expectFlowLinks(t, denunciations, slashings);
  });
});
