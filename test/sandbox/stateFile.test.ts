// Why: a restarted demo must serve the chain it served before (issue #51), so a sandbox server started
// again on its state file rebuilds the same blocks, reorgs included, and only then moves on.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { SandboxServerOptions, startSandboxServer } from '../../framework/sandbox';
import type { SandboxChain } from '../../framework/sandbox';

/** Every block hash of the chain's current branch, by level. */
function hashes(chain: SandboxChain): string[] {
  return Array.from({ length: chain.headLevel + 1 }, (_, level) => chain.at(level)!.hash);
}

describe('sandbox: a state file keeps the served chain across restarts', function () {
  this.timeout(120_000);
  let dir: string;
  let options: SandboxServerOptions;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-sandbox-state-'));
    const stateFile = path.join(dir, 'sandbox.json');
    // A high reorg rate, so the replayed steps must reproduce reorgs too, not only bakes.
    const chain = { seed: 'restart', profile: 'tiny', historyBlocks: 20, reorgRate: 0.3, reorgDepth: 2 } as const;
    options = { port: 0, ...chain, blockIntervalMs: 0, historyEndsAt: new Date('2031-01-01T00:00:00Z'), stateFile };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the same blocks, reorgs included, after live steps, and goes on from there', async () => {
    const first = await startSandboxServer(options);
    for (let i = 0; i < 30; i++) first.step();
    const before = hashes(first.chain);
    await first.close();
    expect(before.length - 1, 'some steps were reorgs').to.be.lessThan(20 + 30);

    // Another start time: ignored, the stored chain's genesis time wins.
    const second = await startSandboxServer({ ...options, historyEndsAt: new Date('2032-06-01T00:00:00Z') });
    try {
      expect(hashes(second.chain)).to.deep.equal(before);
      second.step();
      expect(second.chain.headLevel).to.be.at.least(before.length - 1);
    } finally {
      await second.close();
    }
  });

  it('catches up to a later time with live steps, at most as many as the history', async () => {
    const first = await startSandboxServer(options);
    const head = first.chain.head;
    await first.close();
    const delay = first.chain.profile.minimalBlockDelay * 1000;
    const later = new Date(Date.parse(head.timestamp) + 5 * delay);
    const second = await startSandboxServer({ ...options, catchUpTo: later });
    try {
      // A live step may reorg the old head, never deeper than the reorg depth (2).
      expect(second.chain.at(head.level - 2)?.hash).to.equal(first.chain.at(head.level - 2)!.hash);
      expect(second.chain.headLevel).to.be.within(head.level + 1, head.level + 5);
      expect(Date.parse(second.chain.head.timestamp)).to.be.above(later.getTime() - delay);
    } finally {
      await second.close();
    }
    const steps = (): number => (JSON.parse(fs.readFileSync(options.stateFile!, 'utf8')) as { steps: number }).steps;
    const stepsBefore = steps();
    const far = await startSandboxServer({ ...options, catchUpTo: new Date('2040-01-01T00:00:00Z') });
    try {
      expect(far.chain.headLevel).to.be.within(head.level + 1, head.level + 20);
      expect(steps()).to.equal(stepsBefore + 20);
    } finally {
      await far.close();
    }
  });

  it('starts a new chain when the file holds another chain or cannot be read', async () => {
    for (const text of ['null', '[]', '{"seed":"restart","steps":-1}']) {
      fs.writeFileSync(options.stateFile!, text);
      const server = await startSandboxServer(options);
      await server.close();
      expect(server.chain.head.timestamp, text).to.equal('2031-01-01T00:00:00Z');
    }
    fs.writeFileSync(options.stateFile!, '{ not json');
    const broken = await startSandboxServer(options);
    await broken.close();
    expect(broken.chain.head.timestamp).to.equal('2031-01-01T00:00:00Z');
    const other = await startSandboxServer({ ...options, seed: 'another' });
    await other.close();
    expect(JSON.parse(fs.readFileSync(options.stateFile!, 'utf8')).seed).to.equal('another');
    const back = await startSandboxServer({ ...options, historyEndsAt: new Date('2031-01-01T00:01:00Z') });
    try {
      const what = 'a new chain, its history ending at the new start';
      expect(back.chain.head.timestamp, what).to.equal('2031-01-01T00:01:00Z');
    } finally {
      await back.close();
    }
  });
});
