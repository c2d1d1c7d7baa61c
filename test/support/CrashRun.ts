import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { seededRandom } from '../../framework/util/seededRandom';
import { createTestDatabase, TestDatabase } from './TestDatabase';

/**
 * `tzidx start` run as a child process against a sandbox server, for the crash tests: start, kill at
 * random points, resume, and read whole tables through the API (test/indexer/crash.test.ts,
 * test/defi-dex/crash.test.ts).
 */
const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');

export interface Instance {
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

/** A data directory, a fresh database and a config file (`yaml`, log level warn added) under `root`. */
export async function instance(root: string, name: string, yaml: string): Promise<Instance> {
  const dataDir = path.join(root, name);
  const config = path.join(root, `${name}.yaml`);
  fs.writeFileSync(config, `${yaml}\nlog_level: warn\n`);
  return { port: await freePort(), dataDir, db: await createTestDatabase(), config };
}

/** The child runs with this process's young-generation flag, if any (`npm run bench` passes `npm start`'s). */
export function startIndexer(i: Instance, rpc: string, to: number): ChildProcess {
  return startTzidx(i, ['--rpc', rpc, '--to', String(to)]);
}

/** `tzidx start` with these options, on the instance's port, data directory, config and database. */
export function startTzidx(i: Instance, options: readonly string[]): ChildProcess {
  const flags = process.execArgv.filter((a) => a.startsWith('--max-semi-space-size'));
  const instanceArgs = ['--port', String(i.port), '--data-dir', i.dataDir, '--config', i.config];
  const args = [...flags, BIN, 'start', ...options, ...instanceArgs];
  return spawn(process.execPath, args, {
    env: { ...process.env, DATABASE_URL: i.db.url ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

export async function indexedHeight(i: Instance): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${i.port}/explorer/status`);
    return ((await res.json()) as { indexed: number }).indexed;
  } catch {
    return undefined;
  }
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function stop(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill(signal);
  await exited;
}

/** Starts the indexer and waits until it has indexed `target`; the caller stops the process. */
export async function runTo(i: Instance, rpc: string, target: number, what: string): Promise<ChildProcess> {
  const p = startIndexer(i, rpc, target);
  try {
    // A hang guard, not a time limit: a loaded machine (two suites on two cores) takes minutes.
    await waitFor(what, async () => ((await indexedHeight(i)) === target ? true : undefined), 540_000);
  } catch (e) {
    await stop(p, 'SIGTERM');
    throw e;
  }
  return p;
}

/**
 * `kills` runs each SIGKILLed after a random delay (`rnd`) once its API answers, or with `afterProgress`
 * once it has indexed past the previous kill (so no kill lands before the run's first commit); the
 * heights indexed at the kills (-1: none yet).
 */
export async function killRepeatedly(
  i: Instance,
  rpc: string,
  target: number,
  kills: number,
  rnd: () => number,
  maxDelayMs = 600,
  afterProgress = false,
): Promise<number[]> {
  const killedAt: number[] = [];
  for (let k = 0; k < kills; k++) {
    const p = startIndexer(i, rpc, target);
    const past = killedAt[k - 1] ?? -1;
    await waitFor(
      'the API',
      async () => {
        const h = await indexedHeight(i);
        // Past the previous kill, or at the target (a run that got there first is killed all the same: the
        // caller counts the kills that landed mid-run).
        return h === undefined || (afterProgress && h <= past && h < target) ? undefined : true;
      },
      60_000,
    );
    await new Promise((r) => setTimeout(r, 50 + Math.floor(rnd() * maxDelayMs)));
    killedAt.push((await indexedHeight(i)) ?? -1);
    await stop(p, 'SIGKILL');
  }
  return killedAt;
}

/** Every row of the tables, read page by page (row_id cursor) until a short page; any non-200 fails. */
export async function readTables(i: Instance, codes: readonly string[]): Promise<Record<string, unknown[][]>> {
  const PAGE = 50000;
  const out: Record<string, unknown[][]> = {};
  for (const code of codes) {
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

export interface CrashCase {
  rpc: string;
  target: number;
  /** The instances' config file (plugins, plugin paths). */
  yaml: string;
  tables: readonly string[];
  kills: number;
  seed: number;
  maxDelayMs?: number;
  /** Kill only once the run has indexed past the previous kill (see killRepeatedly). */
  afterProgress?: boolean;
}

/**
 * A clean run to `target`, then a run SIGKILLed `kills` times and resumed to `target`: both runs'
 * tables, and the heights at the kills. Databases and directories are removed afterwards.
 */
export async function crashAndResume(
  c: CrashCase,
): Promise<{ expected: Record<string, unknown[][]>; got: Record<string, unknown[][]>; killedAt: number[] }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-crash-'));
  const made: Instance[] = [];
  try {
    const clean = await instance(root, 'clean', c.yaml);
    made.push(clean);
    const crashy = await instance(root, 'crashy', c.yaml);
    made.push(crashy);
    // The clean run goes on beside the killed ones (why: it shares nothing with them but the node,
    // and each waits on its own child process, so the case takes the longer of the two, not both).
    const cleanRun = async (): Promise<Record<string, unknown[][]>> => {
      const p = await runTo(clean, c.rpc, c.target, 'the clean run');
      try {
        return await readTables(clean, c.tables);
      } finally {
        await stop(p, 'SIGTERM');
      }
    };
    // Both settle before either's failure is thrown: no child process outlives the case.
    const [cleaned, killed] = await Promise.allSettled([
      cleanRun(),
      killRepeatedly(crashy, c.rpc, c.target, c.kills, seededRandom(c.seed), c.maxDelayMs, c.afterProgress),
    ]);
    if (cleaned.status === 'rejected') throw cleaned.reason;
    if (killed.status === 'rejected') throw killed.reason;
    const [expected, killedAt] = [cleaned.value, killed.value];
    const q = await runTo(crashy, c.rpc, c.target, 'the resumed run');
    try {
      return { expected, got: await readTables(crashy, c.tables), killedAt };
    } finally {
      await stop(q, 'SIGTERM');
    }
  } finally {
    for (const i of made) await i.db.drop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
