import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { startSandboxServer, SandboxServer } from '../../framework/sandbox';
import { seededRandom } from '../../framework/util/seededRandom';
import { BACKEND, createTestDatabase, TestDatabase } from '../support/TestDatabase';

const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');
const PLUGIN_DIR = path.resolve(__dirname, 'plugins');
const KILLS = 12;

interface Instance {
  port: number;
  dataDir: string;
  db: TestDatabase;
  config: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function instance(root: string, name: string): Promise<Instance> {
  const dataDir = path.join(root, name);
  const config = path.join(root, `${name}.yaml`);
  fs.writeFileSync(config, `plugin_paths: [${JSON.stringify(PLUGIN_DIR)}]\nlog_level: warn\n`);
  return { port: await freePort(), dataDir, db: await createTestDatabase(), config };
}

function startIndexer(i: Instance, rpc: string, to: number): ChildProcess {
  const args = [BIN, 'start', '--rpc', rpc, '--to', String(to), '--port', String(i.port), '--data-dir', i.dataDir, '--config', i.config];
  return spawn(process.execPath, args, { env: { ...process.env, DATABASE_URL: i.db.url ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] });
}

async function indexedHeight(i: Instance): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${i.port}/explorer/status`);
    return ((await res.json()) as { indexed: number }).indexed;
  } catch {
    return undefined;
  }
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill(signal);
  await exited;
}

/** Every row of the tables, read page by page (row_id cursor) until a short page; any non-200 fails. */
async function tables(i: Instance): Promise<Record<string, unknown[][]>> {
  const PAGE = 50000;
  const out: Record<string, unknown[][]> = {};
  for (const code of ['blocks_seen', 'transfers', 'op_types', 'block', 'op', 'account', 'flow', 'balance', 'chain', 'supply']) {
    const rows: unknown[][] = [];
    for (;;) {
      const cursor = rows.length ? `&cursor=${rows[rows.length - 1][0]}` : '';
      const res = await fetch(`http://127.0.0.1:${i.port}/tables/${code}?limit=${PAGE}${cursor}`);
      const text = await res.text();
      expect(res.status, `/tables/${code}: ${text.slice(0, 200)}`).to.equal(200);
      const page = JSON.parse(text) as unknown[][];
      rows.push(...page);
      if (page.length < PAGE) break;
    }
    out[code] = rows;
  }
  return out;
}

describe(`crash safety: the indexer killed at random points resumes to identical tables (${BACKEND})`, function () {
  this.timeout(600_000);
  let sandbox: SandboxServer;
  let root: string;
  const made: Instance[] = [];

  before(async () => {
    sandbox = await startSandboxServer({ port: 0, seed: 'crash-test', profile: 'tiny', historyBlocks: 1500, blockIntervalMs: 0 });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-crash-'));
  });
  after(async () => {
    await sandbox?.close();
    for (const i of made) await i.db.drop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it(`${KILLS} SIGKILLs during indexing, then a restart: every table equals a clean run's`, async function () {
    const target = sandbox.chain.headLevel;
    const clean = await instance(root, 'clean');
    const crashy = await instance(root, 'crashy');
    made.push(clean, crashy);

    const c = startIndexer(clean, sandbox.url, target);
    await waitFor('the clean run', async () => ((await indexedHeight(clean)) === target ? true : undefined), 300_000);
    const expected = await tables(clean);
    await stop(c, 'SIGTERM');

    const rnd = seededRandom(20261121);
    const killedAt: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const p = startIndexer(crashy, sandbox.url, target);
      await waitFor('the API', () => indexedHeight(crashy).then((h) => (h === undefined ? undefined : h)), 60_000);
      await new Promise((r) => setTimeout(r, 50 + Math.floor(rnd() * 600)));
      killedAt.push((await indexedHeight(crashy)) ?? -1);
      await stop(p, 'SIGKILL');
    }
    const p = startIndexer(crashy, sandbox.url, target);
    try {
      await waitFor('the resumed run', async () => ((await indexedHeight(crashy)) === target ? true : undefined), 300_000);
      expect(await tables(crashy)).to.deep.equal(expected);
    } finally {
      await stop(p, 'SIGTERM');
    }
    // The kills must have landed while indexing was under way, or the test proves nothing.
    const midRun = killedAt.filter((h) => h < target);
    expect(midRun.length, `indexed heights at the kills: ${killedAt.join(', ')}`).to.be.at.least(KILLS / 2);
    expect((expected.blocks_seen as unknown[]).length).to.be.greaterThan(target);
  });
});
