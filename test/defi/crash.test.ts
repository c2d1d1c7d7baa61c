import { expect } from 'chai';
import { startSandboxServer, SandboxServer } from '../../framework/sandbox';
import { crashAndResume } from '../support/CrashRun';
import { BACKEND } from '../support/TestDatabase';

/** Every table of the DeFi plugins; pools and positions are updated in place, events and trades appended. */
const TABLES = [
  'dex_pool',
  'dex_event',
  'dex_trade',
  'dex_position',
  'farm_pool',
  'farm_event',
  'farm_position',
  'lend_pool',
  'lend_event',
  'lend_position',
];
const KILLS = 6;
/** Long enough for every kind of DEX event (LP token transfers are farm stakes), short enough for CI. */
const BLOCKS = 300;

describe(`crash safety of the DeFi plugins: killed at random points, resumed, its tables equal a clean run's (${BACKEND})`, function () {
  this.timeout(1_200_000);
  let sandbox: SandboxServer;

  before(async () => {
    sandbox = await startSandboxServer({
      port: 0,
      seed: 'dex-crash',
      profile: 'tiny',
      historyBlocks: BLOCKS,
      blockIntervalMs: 0,
    });
  });
  after(() => sandbox?.close());

  it(`${KILLS} SIGKILLs while indexing core-chain + defi-dex + defi-farm + defi-lending, then a restart`, async function () {
    const target = sandbox.chain.headLevel;
    // No markets: its quotes come from polling, so two runs would not see the same (USD columns stay null).
    // Batches of 10 blocks: commits to kill between, and journaled batches of several blocks near the head.
    const yaml = 'plugins: [core-chain, defi-dex, defi-farm, defi-lending]\nbatch_blocks: 10';
    const { expected, got, killedAt } = await crashAndResume({
      rpc: sandbox.url,
      target,
      yaml,
      tables: TABLES,
      kills: KILLS,
      seed: 20261125,
      maxDelayMs: 400,
      afterProgress: true,
    });
    // The chain must have every kind of event, or the comparison proves little.
    for (const kind of ['create', 'trade', 'deposit', 'withdraw', 'transfer'])
      expect(
        expected.dex_event.some((r) => r.includes(kind)),
        `a ${kind} event`,
      ).to.equal(true);
    for (const t of ['farm_event', 'lend_event']) expect(expected[t].length, t).to.be.greaterThan(0);
    for (const t of TABLES) expect(got[t], t).to.deep.equal(expected[t]);
    // Each kill came after the run had committed more blocks, and most before the head.
    expect(
      killedAt.every((h, k) => h > (killedAt[k - 1] ?? 0)),
      `indexed heights at the kills: ${killedAt.join(', ')}`,
    ).to.equal(true);
    expect(
      killedAt.filter((h) => h < target).length,
      `indexed heights at the kills: ${killedAt.join(', ')}`,
    ).to.be.at.least(KILLS / 2);
  });
});
