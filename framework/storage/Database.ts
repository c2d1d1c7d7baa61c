import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import knexFactory, { Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import { boundQueryErrors } from './DatabaseErrors';
import type { Logger } from '../util/Logger';
import { ReadMetrics } from './ReadMetrics';

export interface DatabaseOptions {
  /** Postgres connection string; when absent the embedded PGlite under `dataDir` is used. */
  url?: string;
  /** Where the embedded database lives; `:memory:` keeps it in memory (tests). */
  dataDir: string;
  /** Upper bound for every API query (Postgres only: PGlite runs in-process and cannot cancel). */
  statementTimeoutMs: number;
  /** API replicas: the read pool refuses writes. */
  readOnly?: boolean;
  /** Size of the API read pool on Postgres. */
  readPoolSize?: number;
  /** Where knex's own warnings go (a pooled connection found dead, deprecations); default: the console. */
  log?: Logger;
}

export type DatabaseKind = 'postgres' | 'pglite';

/** How a read runs: `prepare` see Database.selectRows. */
export interface SelectOptions {
  prepare?: boolean;
}

let emptyClusterDump: Promise<Blob> | undefined;

/**
 * A freshly initialized PGlite cluster, made once per process: in-memory databases start from a copy
 * of it instead of running initdb each time (seconds each; tests open hundreds).
 */
function emptyCluster(): Promise<Blob> {
  emptyClusterDump ??= PGlite.create().then(async (pg) => {
    try {
      return await pg.dumpDataDir('none');
    } finally {
      await pg.close();
    }
  });
  return emptyClusterDump;
}

/**
 * The instance's database. On Postgres there are two pools: `reader` for the API (bounded by a statement
 * timeout, optionally read-only) and `writer` for the indexer and migrations, and the API's compiled
 * statements (`statement`) run on a third (below). PGlite has one connection, so all are the same handle.
 */
export class Database {
  readonly metrics = new ReadMetrics();

  /** Use Database.open(). */
  constructor(
    readonly kind: DatabaseKind,
    readonly reader: Knex,
    readonly writer: Knex,
    readonly description: string,
    private readonly lookups?: Pool,
  ) {}

  static async open(opts: DatabaseOptions): Promise<Database> {
    if (opts.url) {
      const base = {
        client: 'pg',
        connection: opts.url,
        compileSqlOnError: false,
        ...(opts.log ? { log: knexLog(opts.log) } : {}),
      };
      const reader = knexFactory({
        ...base,
        connection: {
          connectionString: opts.url,
          statement_timeout: opts.statementTimeoutMs,
          ...(opts.readOnly ? { options: READ_ONLY } : {}),
        },
        pool: { min: 0, max: opts.readPoolSize ?? 10 },
      });
      const writer = opts.readOnly ? reader : knexFactory({ ...base, pool: { min: 0, max: 4 } });
      const lookups = lookupPool(opts);
      [reader, writer].forEach(boundQueryErrors);
      const db = new Database('postgres', reader, writer, redact(opts.url), lookups);
      await db.reader.raw('select 1');
      return db;
    }
    const inMemory = opts.dataDir === ':memory:';
    const dir = inMemory ? undefined : path.resolve(opts.dataDir, 'pglite');
    if (dir) fs.mkdirSync(dir, { recursive: true });
    const connection = dir ? { filename: dir } : { pglite: await PGlite.create({ loadDataDir: await emptyCluster() }) };
    const config = { client: ClientPgLite, dialect: 'postgres', connection, compileSqlOnError: false };
    const knex = knexFactory(config as Knex.Config);
    boundQueryErrors(knex);
    await knex.raw('select 1');
    return new Database('pglite', knex, knex, inMemory ? 'PGlite (in memory)' : `PGlite at ${dir}`);
  }

  /**
   * Runs a SELECT whose columns are all text, returning rows as arrays (fast path for the engines).
   * `prepare` (Postgres): the statement is parsed and planned once per connection, then executed by
   * name; for hot queries of a fixed shape only (no value lists), since each text stays prepared.
   */
  async selectRows(query: Knex.QueryBuilder | Knex.Raw, options: SelectOptions = {}): Promise<(string | null)[][]> {
    if (options.prepare && this.kind === 'postgres') {
      const { sql, bindings } = query.toSQL().toNative();
      return preparedRows(query, sql, bindings, statementName(sql));
    }
    const result = await query.options({ rowMode: 'array' });
    return (Array.isArray(result) ? result : (result as { rows: (string | null)[][] }).rows) as (string | null)[][];
  }

  /**
   * A read of a fixed shape (a hot object lookup) built and compiled once: `build` gets one marker per
   * parameter, and each run puts its values in the markers' places. On Postgres the statement runs
   * prepared, without knex building and compiling the query again (a tenth of a hot route's time),
   * on the connections that keep one plan for any values (`open`): a statement's shape must not need
   * a plan per value (keys, not ranges over skewed columns). PGlite, which has no prepared
   * statements, runs `build` with the values. `parameters`: how many `build` takes (its declared
   * ones unless told). A parameter must reach knex as one bound value: a list goes through `= any(?)`
   * (CatalogRows.anyOf), not `whereIn`, which would expand it.
   */
  statement<A extends unknown[]>(
    build: (...params: A) => Knex.QueryBuilder,
    parameters = build.length,
  ): (...values: A) => Promise<(string | null)[][]> {
    const lookups = this.lookups;
    if (!lookups) return (...values) => this.selectRows(build(...values));
    const markers = Array.from({ length: parameters }, (_, i) => `\u0000tzidx:parameter:${i}`);
    const query = build(...(markers as A));
    const { sql, bindings } = query.toSQL().toNative();
    const places = bindings.map((b) => markers.indexOf(b as string));
    for (let i = 0; i < markers.length; i++)
      if (!places.includes(i)) throw new Error(`statement: parameter ${i} is not used in ${sql}`);
    const name = statementName(sql);
    return async (...values) => {
      const result = await lookups.query<(string | null)[]>({
        text: sql,
        values: bindings.map((b, i) => (places[i] < 0 ? b : values[places[i]])),
        rowMode: 'array',
        name,
      });
      return result.rows;
    };
  }

  async close(): Promise<void> {
    await this.reader.destroy();
    if (this.writer !== this.reader) await this.writer.destroy();
    await this.lookups?.end();
  }
}

/** Knex's logger calls as log lines of the instance (they were bare console lines beside its JSON). */
function knexLog(log: Logger): Knex.Config['log'] {
  return {
    warn: (message: string) => log.warn({ component: 'knex' }, String(message)),
    error: (message: string) => log.error({ component: 'knex' }, String(message)),
    deprecate: (method: string, instead: string) => log.warn({ component: 'knex' }, `${method} deprecated: ${instead}`),
    debug: (message: unknown) => log.debug({ component: 'knex' }, String(message)),
  };
}

/** Replicas' sessions refuse writes. */
const READ_ONLY = '-c default_transaction_read_only=on';

/**
 * The pool the API's compiled statements (`Database.statement`) run on. They are lookups by key
 * (`= any($1)`), whose plan does not depend on the keys. Left to choose, Postgres plans them anew on
 * every run: a plan for a key array of unknown length always looks costlier than one for the keys at
 * hand, so the generic plan never wins (planning was half of the op route's statement time). These
 * connections keep one plan per statement; the reader's ad-hoc queries (ranges, skewed filters) still
 * get plans for their values. No JIT and no parallel workers: a lookup reads a few rows, but a plan
 * over many estimated keys (or a table not analyzed yet) can look costly enough for both, and
 * compiling the expressions then took 25 ms on every run (the demo's op lookup, 0.4 ms without).
 */
function lookupPool(opts: DatabaseOptions): Pool {
  const pool = new Pool({
    connectionString: opts.url,
    statement_timeout: opts.statementTimeoutMs,
    connectionTimeoutMillis: opts.statementTimeoutMs,
    options: [
      ...(opts.readOnly ? [READ_ONLY] : []),
      '-c plan_cache_mode=force_generic_plan',
      '-c jit=off',
      '-c max_parallel_workers_per_gather=0',
    ].join(' '),
    max: opts.readPoolSize ?? 10,
    // Postgres remakes a kept plan when ANALYZE updates a table's statistics; without autovacuum a
    // plan made while a table was small (a seq scan early in a sync) would last as long as its
    // connection. A connection, and its plans, lasts a minute at most.
    maxLifetimeSeconds: 60,
  });
  // An idle connection the server dropped leaves the pool; the next lookup opens another.
  pool.on('error', () => undefined);
  return pool;
}

/** The part of knex's client a query runs on: a pooled pg connection (a transaction's own, inside one). */
interface ConnectionSource {
  acquireConnection(): Promise<{ query(config: object): Promise<{ rows: (string | null)[][] }> }>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * A prepared read of a compiled query (`sql` and its values) on a pg connection of the query's pool:
 * knex's runner would compile the query again (after the compile that names it) and wrap each run in
 * its own bookkeeping, a good part of a hot object route's time.
 */
async function preparedRows(
  query: Knex.QueryBuilder | Knex.Raw,
  sql: string,
  values: readonly unknown[],
  name: string,
): Promise<(string | null)[][]> {
  const client = (query as unknown as { client: ConnectionSource }).client;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ text: sql, values, rowMode: 'array', name })).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Names of the statement texts seen lately: hashing the text on every request was 2 % of an object route. */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_KEPT = 1024;

/** A prepared statement's name: the same text always gets the same name, on every connection. */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    if (statementNames.size >= STATEMENT_NAMES_KEPT) statementNames.clear();
    name = `tzidx_${createHash('sha1').update(sql).digest('base64url')}`;
    statementNames.set(sql, name);
  }
  return name;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return `Postgres at ${u.toString()}`;
  } catch {
    return 'Postgres';
  }
}
