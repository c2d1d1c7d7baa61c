import { expect } from 'chai';
import type { Knex } from 'knex';
import { HandlerRegistry, PluginClass, PluginManifest } from '../../framework';
import { Indexer } from '../../framework/indexer/Indexer';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

/** What happened, in order: batch ends (with their transaction), after-commit calls (what they saw), rollbacks. */
const log: string[] = [];
/** What the after-commit hook does besides logging: set per test. */
const behaviour: { onCall: (call: number, seen: number) => Promise<void> } = { onCall: async () => undefined };

const txid = async (trx: Knex.Transaction): Promise<string> => String((await trx.raw('select txid_current() as id')).rows[0].id);
const committedHeight = async (trx: Knex.Transaction): Promise<number> => Number((await trx('probe.blocks_seen').where('orphan', false).max({ h: 'height' }))[0].h);

/** Logs each batch's end and each after-commit call, with their transactions and the highest block the call sees. */
class FollowPlugin {
  static readonly manifest: PluginManifest = { name: 'follow', dependsOn: ['probe'] };
  private calls = 0;
  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.afterBatch(async (trx, _from, to) => void log.push(`batch ${to} in ${await txid(trx)}`));
    r.afterCommit(async (trx) => {
      const seen = await committedHeight(trx);
      const call = ++this.calls;
      log.push(`follow ${call} sees ${seen} in ${await txid(trx)}`);
      await behaviour.onCall(call, seen);
      log.push(`follow ${call} done`);
    });
    r.beforeRollback(() => void log.push('rollback'));
  }
}

const plugins = [ProbePlugin as unknown as PluginClass, FollowPlugin as unknown as PluginClass];

/** Resolves once the log has a line matching `re`; rejects after `ms`. */
async function logged(re: RegExp, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (log.some((l) => re.test(l))) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`waited ${ms} ms for ${re}`);
}

describe(`indexer: after-commit hooks (series rollups) follow the commits (${BACKEND})`, function () {
  this.timeout(120_000);
  let t: TestInstance;
  beforeEach(async () => {
    log.length = 0;
    behaviour.onCall = async () => undefined;
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
  });
  afterEach(() => t.close());

  const lines = (prefix: string): string[] => log.filter((l) => l.startsWith(prefix));

  it('on Postgres run in their own transaction while later batches are handled; on PGlite in each batch; the run ends after the last', async () => {
    const chain = new SandboxChain({ seed: 'after-commit', profile: 'tiny' });
    chain.bake(24);
    // Postgres: the first call holds until two more batches committed, which they must do without it.
    if (BACKEND === 'postgres') behaviour.onCall = (call) => (call === 1 ? logged(/^batch 14 /) : Promise.resolve());
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5 });
    const batches = lines('batch ').map((l) => l.split(' '));
    const follows = lines('follow ').filter((l) => l.includes(' sees ')).map((l) => l.split(' '));
    expect(batches.map((b) => Number(b[1]))).to.deep.equal([4, 9, 14, 19, 24]);
    // The run ended after a call that saw every block.
    expect(Number(follows[follows.length - 1][3])).to.equal(chain.headLevel);
    expect(log[log.length - 1]).to.match(/^follow \d+ done$/);
    if (BACKEND === 'postgres') {
      // Each call in a transaction of its own, seeing only committed blocks (batch ends at or below what it saw).
      const batchTx = new Set(batches.map((b) => b[3]));
      for (const f of follows) expect(batchTx.has(f[5]), f.join(' ')).to.equal(false);
      expect(log.findIndex((l) => l.startsWith('batch 14 '))).to.be.lessThan(log.indexOf('follow 1 done'));
      expect(Number(follows[0][3])).to.be.lessThan(14);
      // Batches that committed while a call was running are covered by one more call, not one each.
      expect(follows.length).to.be.lessThan(batches.length);
    } else {
      // One call per batch, inside it, seeing the batch's own blocks.
      expect(follows.map((f) => [Number(f[3]), f[5]])).to.deep.equal(batches.map((b) => [Number(b[1]), b[3]]));
    }
  });

  it('a failing hook leaves the batches committed and runs again after the next batch', async () => {
    const chain = new SandboxChain({ seed: 'after-commit-fail', profile: 'tiny' });
    chain.bake(14);
    behaviour.onCall = async (call) => {
      if (call === 1) throw new Error('fold failed');
    };
    const status = await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5 });
    expect(status.indexed).to.equal(chain.headLevel);
    expect(lines('follow 1 ')).to.have.length(1); // logged what it saw, never done
    expect(log).to.include('follow 2 done');
    const last = lines('follow ').filter((l) => l.includes(' sees ')).pop()!;
    expect(Number(last.split(' ')[3])).to.equal(chain.headLevel);
    const heights = ((await (await t.get('/tables/blocks_seen?columns=height&orphan=false&limit=100')).json()) as number[][]).map((r) => r[0]);
    expect(Math.max(...heights)).to.equal(chain.headLevel);
  });

  it('a rollback waits for the call in progress', async function () {
    // PGlite runs the hooks inside the batch: nothing can be in progress beside a rollback.
    if (BACKEND !== 'postgres') this.skip();
    const chain = new SandboxChain({ seed: 'after-commit-reorg', profile: 'tiny' });
    chain.bake(30);
    // Spy: the indexer decided to roll back (before it waits for the call in progress).
    const proto = Indexer.prototype as unknown as { rollbackTo: (height: number, hash: string) => Promise<void> };
    const original = proto.rollbackTo;
    proto.rollbackTo = function (this: unknown, height: number, hash: string) {
      log.push(`rollback to ${height} decided`);
      return original.call(this, height, hash);
    };
    let forked = false;
    behaviour.onCall = async (_call, seen) => {
      if (forked || seen < 9) return;
      forked = true;
      // Blocks above 6 change while this call runs: the indexer finds the fork as it reads on.
      chain.reorg(chain.headLevel - 6);
      await logged(/^rollback to \d+ decided$/);
      await new Promise((r) => setTimeout(r, 200));
    };
    try {
      await indexSandbox(t, chain, { reorgDepth: 40, batchBlocks: 3 });
    } finally {
      proto.rollbackTo = original;
    }
    const held = log.findIndex((l) => /^follow \d+ sees (9|1\d)/.test(l));
    const call = log[held].split(' ')[1];
    expect(log.indexOf(`follow ${call} done`)).to.be.greaterThan(log.findIndex((l) => l.endsWith(' decided')));
    expect(log.indexOf(`follow ${call} done`)).to.be.lessThan(log.indexOf('rollback'));
  });
});
