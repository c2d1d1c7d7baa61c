import { expect } from 'chai';
import { startSandboxServer, SandboxServer } from '../../framework/sandbox';
import { crashAndResume } from '../support/CrashRun';
import { BACKEND } from '../support/TestDatabase';

/** Every baking table; all three are updated in place (journaled), which is what a crash must not break. */
const TABLES = ['rights', 'income', 'snapshot'];
const KILLS = 4;
/** The tiny profile's cycles are 8 blocks: 120 blocks cross 15 cycle starts and ends. */
const BLOCKS = 120;

describe(`crash safety of baking: killed at random points, resumed, its tables equal a clean run's (${BACKEND})`, function () {
  this.timeout(1_200_000);
  let sandbox: SandboxServer;

  before(async () => {
    sandbox = await startSandboxServer({
      port: 0,
      seed: 'baking-crash',
      profile: 'tiny',
      historyBlocks: BLOCKS,
      blockIntervalMs: 0,
    });
  });
  after(() => sandbox?.close());

  it(`${KILLS} SIGKILLs while indexing core-chain + baking, then a restart`, async function () {
    const target = sandbox.chain.headLevel;
    const { expected, got, killedAt } = await crashAndResume({
      rpc: sandbox.url,
      target,
      yaml: 'plugins: [core-chain, baking]\nbatch_blocks: 6',
      tables: TABLES,
      kills: KILLS,
      seed: 20261125,
      maxDelayMs: 400,
      afterProgress: true,
    });
    // Rights came from the node, snapshots were taken and income was earned: the comparison covers them.
    for (const t of TABLES) expect(expected[t].length, t).to.be.greaterThan(10);
    for (const t of TABLES) expect(got[t], t).to.deep.equal(expected[t]);
    expect(
      killedAt.every((h, k) => h > (killedAt[k - 1] ?? 0)),
      `indexed heights at the kills: ${killedAt.join(', ')}`,
    ).to.equal(true);
  });
});
