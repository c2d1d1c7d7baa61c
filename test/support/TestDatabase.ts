import { Client } from 'pg';
import { Database, DatabaseOptions } from '../../framework/storage/Database';

/**
 * Tests run on PGlite (in memory) unless TZIDX_TEST_DATABASE_URL names a Postgres server; then each
 * test instance gets a database of its own, created here and dropped afterwards.
 */
export function postgresUrl(): string | undefined {
  return process.env.TZIDX_TEST_DATABASE_URL || undefined;
}
export const BACKEND = postgresUrl() ? 'postgres' : 'pglite';

let counter = 0;

export interface TestDatabase {
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = postgresUrl();
  if (!server) return { drop: async () => undefined };
  const name = `tzidx_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await admin(async (c) => c.query(`create database "${name}"`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(async (c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: postgresUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A Database on a scratch test database for the current mocha block (opened before its tests, closed
 * and dropped after them); `db()` is valid inside the tests.
 */
export function scratchDatabase(options: Partial<DatabaseOptions> = {}): () => Database {
  let testDb: TestDatabase | undefined;
  let db: Database | undefined;
  before(async function () {
    testDb = await createTestDatabase();
    db = await Database.open({ url: testDb.url, dataDir: ':memory:', statementTimeoutMs: 30_000, ...options });
  });
  after(async function () {
    await db?.close();
    await testDb?.drop();
  });
  return () => db!;
}
