import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson } from './support/api';
import {
  chainBlocks,
  denunciationsOf,
  expectFlowLinks,
  expectOpRows,
  expectOpSeries,
  slashingsOf,
} from './support/slashings';

// Why: a reorg that replaces the block slashing Oxford+ denunciations at a cycle end goes through the
// indexer's rollback (the old branch's flows and the figures they gave go) and the new branch's block
// slashes them again: the op rows, their flows and the op series follow the new branch's receipts
// (the sandbox's RPC JSON; no recorded mainnet block holds `delayed_operation_hash`, see
// delayedSlashing.test.ts). Seed 'explorer': the end of cycle 4 (level 40) slashes two denunciations.
describe(`core-chain: a reorg of the block slashing denunciations (${BACKEND})`, function () {
  this.timeout(600_000);
  const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
  let t: TestInstance;
  let slashedAt: number;

  before(async function () {
    // Where the first slashing is, from a copy of the chain baked ahead.
    const ahead = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    ahead.bakeTo(48);
    slashedAt = Math.min(...[...slashingsOf(chainBlocks(ahead)).values()].map((s) => s.level));
    chain.bakeTo(slashedAt + 1);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain, { toLevel: slashedAt - 1 });
    await indexSandbox(t, chain);
  });
  after(async () => t?.close());

  it('the new branch slashes again; rows, flows and the series follow its receipts', async () => {
    const before = chainBlocks(chain);
    chain.reorg(2);
    await indexSandbox(t, chain);
    const blocks = chainBlocks(chain);
    expect(blocks[slashedAt - 1].hash, 'replaced').to.not.equal(before[slashedAt - 1].hash);
    const [[hash]] = await getJson<string[][]>(t, `/tables/block?columns=hash&height=${slashedAt}&is_orphan=0`);
    expect(hash).to.equal(blocks[slashedAt - 1].hash);
    const slashings = slashingsOf(blocks);
    const denunciations = denunciationsOf(blocks);
    expect([...slashings.values()].filter((s) => s.level === slashedAt).length).to.be.at.least(2);
    await expectOpRows(t, denunciations, slashings);
    await expectFlowLinks(t, denunciations, slashings);
    await expectOpSeries(t);
  });
});
