import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import { stop, waitFor } from '../support/CrashRun';

/**
 * The streaming hot standby of the test cluster that CI provides (`.ci/standby`, TZIDX_TEST_STANDBY_URL),
 * and `tzidx serve` child processes on it. Why here: test/replica's tests read a standby the test itself
 * cannot build (it needs the cluster tools as root); they fail, never skip, when it is missing.
 */
const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');

export const HOW_TO_CREATE = `TZIDX_TEST_STANDBY_URL is not set: the replica tests need a streaming hot standby of
the test Postgres cluster. Create one with \`.ci/standby\` (as root: a cluster \`standby\` on port 5433 made by
pg_basebackup -R -X stream from 127.0.0.1:5432), then run with
TZIDX_TEST_STANDBY_URL=postgres://postgres@127.0.0.1:5433/test (CI's .ci/run does both).`;

/** The standby's URL for the primary database `primaryUrl` names (the same database, replicated). */
export function standbyUrlFor(standbyServer: string, primaryUrl: string): string {
  const url = new URL(standbyServer);
  url.pathname = new URL(primaryUrl).pathname;
  return url.toString();
}

/** Fails unless the server at `url` is a standby in recovery, streaming from its primary. */
export async function expectStreamingStandby(url: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ recovery: boolean; receiver: string | null }>(
      'select pg_is_in_recovery() as recovery, (select status from pg_stat_wal_receiver) as receiver',
    );
    const { recovery, receiver } = r.rows[0];
    if (!recovery || receiver !== 'streaming')
      throw new Error(`${url} is not a streaming standby (in recovery: ${recovery}, WAL receiver: ${receiver})`);
  } finally {
    await c.end();
  }
}

/** `pg_ctlcluster` on the local cluster listening on the standby URL's port (root, as CI runs). */
export function standbyCluster(url: string): (action: 'stop' | 'start') => void {
  const port = new URL(url).port || '5432';
  const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((cols) => cols[2] === port);
  if (!line) throw new Error(`no local Postgres cluster listens on port ${port} (pg_lsclusters)`);
  const [version, name] = line;
  return (action) => {
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action], { stdio: 'pipe' });
  };
}

/** A `tzidx serve` child process on `databaseUrl`; `url` once it listens; `log` what it printed. */
export interface ServeProcess {
  process: ChildProcess;
  url: string;
  log(): string;
  /** Throws with its output if the process is gone. */
  alive(): void;
  stop(): Promise<void>;
}

export async function startServe(databaseUrl: string, plugins: readonly string[]): Promise<ServeProcess> {
  let out = '';
  const args = [BIN, 'serve', '--port', '0', '--plugins', plugins.join(','), '--log-level', 'info'];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [child.stdout!, child.stderr!]) s.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const url = await waitFor(
    'tzidx serve to listen',
    async () => {
      if (exited()) throw new Error(`tzidx serve exited (${child.exitCode ?? child.signalCode}):\n${out}`);
      return /"url":"(http:[^"]+)"/.exec(out)?.[1];
    },
    60_000,
  ).catch(async (e) => {
    await stop(child, 'SIGKILL');
    throw e;
  });
  return {
    process: child,
    url,
    log: () => out,
    alive: () => {
      if (exited()) throw new Error(`tzidx serve exited (${child.exitCode ?? child.signalCode}):\n${out}`);
    },
    stop: () => stop(child, 'SIGTERM'),
  };
}
