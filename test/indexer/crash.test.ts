import * as path from 'node:path';
import { expect } from 'chai';
import { startSandboxServer, SandboxServer } from '../../framework/sandbox';
import { crashAndResume } from '../support/CrashRun';
import { BACKEND } from '../support/TestDatabase';

const PLUGIN_DIR = path.resolve(__dirname, 'plugins');
const KILLS = 8;
const TABLES = ['blocks_seen', 'transfers', 'op_types', 'block', 'op', 'account', 'flow', 'balance', 'chain', 'supply'];

describe(`crash safety: the indexer killed at random points resumes to identical tables (${BACKEND})`, function () {
  this.timeout(1_200_000);
  let sandbox: SandboxServer;

  before(async () => {
    sandbox = await startSandboxServer({
      port: 0,
      seed: 'crash-test',
      profile: 'tiny',
      historyBlocks: 1000,
      blockIntervalMs: 0,
    });
  });
  after(() => sandbox?.close());

  it(`${KILLS} SIGKILLs during indexing, then a restart: every table equals a clean run's`, async function () {
    const target = sandbox.chain.headLevel;
    // Batches of 25 blocks: many commits to kill between, journaled batches of several blocks near the head.
    const yaml = `plugin_paths: [${JSON.stringify(PLUGIN_DIR)}]\nbatch_blocks: 25`;
    const { expected, got, killedAt } = await crashAndResume({
      rpc: sandbox.url,
      target,
      yaml,
      tables: TABLES,
      kills: KILLS,
      seed: 20261121,
      afterProgress: true,
    });
    expect(got).to.deep.equal(expected);
    // The kills must have landed while indexing was under way (after a first commit, before the
    // target), or the test proves nothing: a kill before anything is indexed (-1) does not count.
    const midRun = killedAt.filter((h) => h >= 0 && h < target);
    expect(midRun.length, `indexed heights at the kills: ${killedAt.join(', ')}`).to.be.at.least(KILLS / 2);
    expect((expected.blocks_seen as unknown[]).length).to.be.greaterThan(target);
  });
});
