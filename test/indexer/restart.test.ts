// Why: a restarted `tzidx start` without a node built a new sandbox chain below the height its data
// directory had indexed, and waited for it while its status said `synced` with `indexed` above `blocks`
// (issue #51). The restarted demo must continue the chain it indexed, at once.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { startSandboxServer } from '../../framework/sandbox';
import { indexedHeight, Instance, instance, startTzidx, stop, waitFor } from '../support/CrashRun';
import { BACKEND } from '../support/TestDatabase';

const CHAIN = { seed: 'restart-test', profile: 'tiny', historyBlocks: 64 } as const;
const ARGS = ['--seed', CHAIN.seed, '--profile', CHAIN.profile, '--interval-ms', '500'];
/** The first run stops here, a few live blocks past the history. */
const FIRST = 70;
/** Blocks the node may bake after the restart before the index passes the old height: no stall. */
const BOUND = 20;

interface Answer {
  status: string;
  blocks: number;
  indexed: number;
}

async function status(i: Instance): Promise<Answer | undefined> {
  try {
    return (await (await fetch(`http://127.0.0.1:${i.port}/explorer/status`)).json()) as Answer;
  } catch {
    return undefined; // not listening yet
  }
}

/** What the child wrote on stderr (its warnings and errors), for failure messages. */
function stderrOf(p: ChildProcess): () => string {
  let text = '';
  p.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  return () => text.slice(-2000);
}

describe(`tzidx start on the built-in sandbox, stopped and started again (${BACKEND})`, function () {
  this.timeout(600_000);
  let root: string;
  let demo: Instance;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-restart-'));
    demo = await instance(root, 'demo', 'plugins: [core-chain]');
  });
  after(async () => {
    await demo?.db.drop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('continues the indexed chain at once, its hashes the node’s, never reporting indexed above the node', async () => {
    const first = startTzidx(demo, [...ARGS, '--to', String(FIRST)]);
    const firstErr = stderrOf(first);
    try {
      const reached = async (): Promise<true | undefined> => ((await indexedHeight(demo)) === FIRST ? true : undefined);
      await waitFor(`the first run to index ${FIRST}`, reached, 300_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}: ${firstErr()}`);
    } finally {
      await stop(first, 'SIGTERM');
    }

    const second = startTzidx(demo, ARGS);
    const secondErr = stderrOf(second);
    const answers: Answer[] = [];
    let blocks: string[][];
    try {
      // Every answer from the restart until the index is past the old height, or the node is BOUND
      // blocks further than its first answer (then the index stalled).
      const passed = await waitFor(
        'the restarted run to index past the old height',
        async () => {
          const a = await status(demo);
          if (a) answers.push(a);
          const start = answers.find((x) => x.blocks >= 0);
          const over = a && start && (a.indexed > FIRST || a.blocks > start.blocks + BOUND || a.status === 'failed');
          return over ? a : undefined;
        },
        300_000,
      );
      expect(passed.indexed, `status ${JSON.stringify(passed)}, stderr: ${secondErr()}`).to.be.greaterThan(FIRST);
      const query = 'columns=height,hash,time&is_orphan=false&limit=50000';
      const res = await fetch(`http://127.0.0.1:${demo.port}/tables/block?${query}`);
      blocks = (await res.json()) as string[][];
    } finally {
      await stop(second, 'SIGTERM');
    }
    const above = answers.filter((a) => a.blocks >= 0 && a.indexed > a.blocks);
    expect(above, 'answers with indexed above the node head').to.deep.equal([]);
    expect(answers.find((a) => a.blocks >= 0)!.blocks, 'the node continues the indexed chain').to.be.at.least(FIRST);

    // The node's chain, rebuilt from the state the demo keeps in its data directory.
    const stateFile = path.join(demo.dataDir, 'sandbox.json');
    const node = await startSandboxServer({ port: 0, ...CHAIN, blockIntervalMs: 0, stateFile });
    try {
      const indexed = blocks.map(([height]) => Number(height));
      expect(indexed).to.deep.equal(Array.from({ length: indexed.length }, (_, level) => level));
      expect(indexed.length - 1).to.be.greaterThan(FIRST);
      const ours = blocks.map(([height, hash, time]) => [Number(height), hash, new Date(time).toISOString()]);
      const theirs = indexed.map((level) => {
        const b = node.chain.at(level)!;
        return [level, b.hash, new Date(b.timestamp).toISOString()];
      });
      expect(ours).to.deep.equal(theirs);
    } finally {
      await node.close();
    }
  });
});
