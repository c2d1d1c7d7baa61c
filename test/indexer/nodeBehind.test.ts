// Why: an index above the node's head (a node restarted, replaced, or on another branch) must roll back
// to the block both have, not wait with `indexed` above `blocks` (issue #51).
import { expect } from 'chai';
import { RpcBlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { PluginClass } from '../../framework/plugins/Plugin';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';
import { countTypes, ProbePlugin } from './plugins/probe/plugin';

const SEED = 'node-behind';
const OPTIONS = { reorgDepth: 16, batchBlocks: 7 };

/** A node of the test chain's seed, baked to `level`. */
function node(level: number): SandboxChain {
  const chain = new SandboxChain({ seed: SEED, profile: 'tiny' });
  chain.bakeTo(level);
  return chain;
}

interface Answer {
  status: string;
  blocks: number;
  indexed: number;
}

/**
 * Indexes `chain` (to its head) while asking /explorer/status over and over; every answer. The
 * answers come between the indexer's own awaits, so they see each step of a rollback.
 */
async function indexPolling(t: TestInstance, chain: SandboxChain): Promise<Answer[]> {
  const answers: Answer[] = [];
  let done = false;
  const polling = (async () => {
    while (!done) answers.push((await (await t.get('/explorer/status')).json()) as Answer);
  })();
  try {
    await indexSandbox(t, chain, OPTIONS);
  } finally {
    done = true;
    await polling;
  }
  answers.push((await (await t.get('/explorer/status')).json()) as Answer);
  return answers;
}

async function rows(t: TestInstance, query: string): Promise<unknown[][]> {
  const res = await t.get(query);
  expect(res.status, query).to.equal(200);
  return (await res.json()) as unknown[][];
}

/** The index holds exactly the node's chain: its blocks by hash, and mutable counts as of its head. */
async function expectNodeChain(t: TestInstance, chain: SandboxChain): Promise<void> {
  const blocks = canonical(chain);
  const seen = await rows(t, '/tables/blocks_seen?columns=height,hash&orphan=0&order=asc&limit=50000');
  expect(seen).to.deep.equal(blocks.map((b) => [b.level, b.hash]));
  const types = await rows(t, '/tables/op_types?columns=type,count&limit=50000');
  expect(new Map(types as Array<[string, number]>)).to.deep.equal(countTypes(blocks));
}

function expectNeverAbove(answers: Answer[]): void {
  const above = answers.filter((a) => a.blocks >= 0 && a.indexed > a.blocks);
  expect(above, 'answers with indexed above the node head').to.deep.equal([]);
  const early = answers.filter((a) => a.status === 'synced' && a.indexed !== a.blocks);
  expect(early, 'synced while not at the head').to.deep.equal([]);
}

async function rollbacks(t: TestInstance): Promise<number> {
  return (await t.app.container.resolve(IndexerStatus).rollbacks.get()).values[0].value;
}

describe(`a node behind the index or on another branch below its head (${BACKEND})`, function () {
  this.timeout(180_000);
  let t: TestInstance;
  beforeEach(async () => {
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins: [ProbePlugin as unknown as PluginClass] });
    await indexSandbox(t, node(40), OPTIONS);
  });
  afterEach(async () => t?.close());

  it('a node behind on the indexed chain: rolls back to its head, and the status follows it', async () => {
    const behind = node(35);
    const answers = await indexPolling(t, behind);
    expectNeverAbove(answers);
    expect(answers[answers.length - 1]).to.deep.include({ status: 'synced', blocks: 35, indexed: 35 });
    expect(await rollbacks(t)).to.equal(1);
    await expectNodeChain(t, behind);
  });

  it('a node whose chain leaves ours below our head and ends below it: rolls back to the common block', async () => {
    const other = node(38);
    other.reorg(5);
    const forkedAt = 33;
    expect(other.at(forkedAt)!.hash).to.equal(node(forkedAt).head.hash);
    expect(other.at(forkedAt + 1)!.hash).to.not.equal(node(forkedAt + 1).head.hash);
    const answers = await indexPolling(t, other);
    expectNeverAbove(answers);
    expect(answers[answers.length - 1]).to.deep.include({ status: 'synced', blocks: 38, indexed: 38 });
    await expectNodeChain(t, other);
    // The blocks of our old branch above the fork stay, flagged as orphans.
    const orphans = await rows(t, '/tables/blocks_seen?columns=height&orphan=1&order=asc&limit=50000');
    expect(orphans).to.deep.equal(Array.from({ length: 40 - forkedAt }, (_, i) => [forkedAt + 1 + i]));
  });

  it('a node below the kept window: stops with a clear message, never reporting indexed above it', async () => {
    const far = node(10);
    const source = new RpcBlockSource(new SandboxRpcTransport(far));
    await t.app.startIndexer(source, { ...OPTIONS, retryDelayMs: 10, toLevel: far.headLevel });
    await source.close();
    const status = t.app.container.resolve(IndexerStatus);
    expect(status.status).to.equal('failed');
    expect(status.lastError).to.match(/the node's head 10 is below the indexed height 40/);
    expectNeverAbove([(await (await t.get('/explorer/status')).json()) as Answer]);
  });
});
