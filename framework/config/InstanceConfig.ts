import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';

/** Everything an instance is told: which plugins, which database, where to listen, what to index. */
export interface InstanceConfig {
  /** Enabled plugins; undefined = every plugin found. */
  plugins?: string[];
  /** Extra directories searched for third-party plugins (next to the built-in one). */
  pluginPaths: string[];
  databaseUrl?: string;
  dataDir: string;
  port: number;
  host: string;
  catalogFile: string;
  statementTimeoutMs: number;
  rpc?: string;
  archive?: string;
  logLevel: string;
  /** The markets plugin: polling on/off, which exchanges (default: all it knows), candle backfill. */
  markets?: MarketsConfig;
  /** The metadata plugin's settings (file key `metadata`), checked by that plugin. */
  metadata?: Record<string, unknown>;
  /**
   * Blocks per indexer transaction (file key `batch_blocks`, default 100): while catching up, and
   * within the reorg window when the node is ahead (those are journaled block by block).
   */
  batchBlocks?: number;
  /**
   * Operations per indexer transaction (file key `batch_operations`, default 20,000): a batch ends
   * before the block that would take it past this, so dense blocks make shorter batches.
   */
  batchOperations?: number;
  /**
   * The baking plugin's settings (file key `baking`): `rights_window`, levels of attestation rights asked for at once.
   */
  baking?: { rights_window?: number };
  /**
   * Contracts to watch under a role (role → addresses), for contracts whose origination is not
   * indexed (an index starting later, bootstrap contracts): group patterns with `{role}` steps match them.
   */
  watch?: Record<string, string[]>;
  /**
   * API admission control (file keys `api_max_inflight`, `api_queue`, `api_queue_timeout_ms`): requests
   * handled at once, requests waiting for a turn, and how long one may wait before a 503.
   */
  apiMaxInflight: number;
  apiQueue: number;
  apiQueueTimeoutMs: number;
  /**
   * Origins whose pages may read the API cross-origin (file key `cors_origins`, env `TZIDX_CORS_ORIGINS`
   * comma-separated): `*` for any, empty for none. Reads only (GET, HEAD and their preflight), never writes.
   */
  corsOrigins: string[];
  /**
   * Caps of `/stream`, which bypasses admission control (file keys `stream_max_clients`,
   * `stream_max_filter_entries`, `stream_max_filter_bytes`; defaults in StreamHub's DEFAULT_STREAM_LIMITS).
   */
  streamMaxClients?: number;
  streamMaxFilterEntries?: number;
  streamMaxFilterBytes?: number;
}

export interface MarketsConfig {
  enabled?: boolean;
  exchanges?: string[];
  backfillHours?: number;
}

/** The package root: where tables.yaml and the built-in plugins live (dist/ sits below it). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..', '..');

export const DEFAULTS: InstanceConfig = {
  pluginPaths: [],
  dataDir: './data',
  port: 8000,
  host: '127.0.0.1',
  catalogFile: path.join(PACKAGE_ROOT, 'tables.yaml'),
  statementTimeoutMs: 30_000,
  logLevel: 'info',
  // Twice the API's 10 database connections: one request's query runs while another's answer is
  // encoded, and the pool's own (unbounded, 60 s then a 500) wait stays short. Measured at 200 clients
  // (npm run bench load): 10 and 20 alike; without a limit the same rate but a p99 about three times higher.
  apiMaxInflight: 20,
  // Room for a few hundred clients' bursts; each waiting request costs a socket and a closure.
  apiQueue: 500,
  // Well under the 30 s statement timeout and common client timeouts: an answer, not a hang.
  apiQueueTimeoutMs: 10_000,
  // A public read API, like TzKT's: any page may read it; writes never carry CORS headers.
  corsOrigins: ['*'],
};

/** The YAML file's keys (snake_case) and their types; unknown keys are an error, not a silent no-op. */
const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    plugins: { type: 'array', items: { type: 'string' } },
    plugin_paths: { type: 'array', items: { type: 'string' } },
    database_url: { type: 'string' },
    data_dir: { type: 'string' },
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    host: { type: 'string' },
    catalog_file: { type: 'string' },
    statement_timeout_ms: { type: 'integer', minimum: 100 },
    rpc: { type: 'string' },
    archive: { type: 'string' },
    log_level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    markets: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        exchanges: { type: 'array', items: { type: 'string' } },
        backfill_hours: { type: 'number', minimum: 0 },
      },
    },
    metadata: { type: 'object' },
    batch_blocks: { type: 'integer', minimum: 1, maximum: 10000 },
    batch_operations: { type: 'integer', minimum: 1, maximum: 10000000 },
    baking: {
      type: 'object',
      additionalProperties: false,
      properties: { rights_window: { type: 'integer', minimum: 1, maximum: 4096 } },
    },
    watch: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string', pattern: '^KT1[1-9A-HJ-NP-Za-km-z]{33}$' } },
    },
    api_max_inflight: { type: 'integer', minimum: 1 },
    api_queue: { type: 'integer', minimum: 0 },
    api_queue_timeout_ms: { type: 'integer', minimum: 1 },
    cors_origins: { type: 'array', items: { type: 'string', pattern: '^(\\*|https?://[^/\\s,]+)$' } },
    stream_max_clients: { type: 'integer', minimum: 0 },
    stream_max_filter_entries: { type: 'integer', minimum: 1 },
    stream_max_filter_bytes: { type: 'integer', minimum: 1 },
  },
};
const validateFile = new Ajv({ allErrors: false }).compile(FILE_SCHEMA);

export class ConfigError extends Error {}

type Partial_ = Partial<InstanceConfig>;

/** Precedence: flags > environment > YAML file > defaults. */
export function loadConfig(sources: { flags?: Partial_; env?: NodeJS.ProcessEnv; file?: string }): InstanceConfig {
  const env = sources.env ?? {};
  const file = sources.file ?? env.TZIDX_CONFIG;
  const fromFile = file ? readConfigFile(file) : {};
  const merged = { ...DEFAULTS, ...fromFile, ...fromEnv(env), ...stripUndefined(sources.flags ?? {}) };
  if (!Number.isInteger(merged.port) || merged.port < 0 || merged.port > 65535)
    throw new ConfigError(`invalid port '${merged.port}'`);
  if (!Number.isInteger(merged.statementTimeoutMs) || merged.statementTimeoutMs < 100) {
    throw new ConfigError(`invalid statement timeout '${merged.statementTimeoutMs}' (milliseconds, at least 100)`);
  }
  return merged;
}

function readConfigFile(file: string): Partial_ {
  let raw: unknown;
  try {
    raw = parse(fs.readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    throw new ConfigError(`cannot read config file ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!validateFile(raw)) {
    const err = validateFile.errors![0];
    const where = err.instancePath || '/';
    const what =
      err.keyword === 'additionalProperties'
        ? `unknown key '${(err.params as { additionalProperty: string }).additionalProperty}'`
        : err.message;
    throw new ConfigError(`config file ${file} at ${where}: ${what}`);
  }
  const f = raw as Record<string, never>;
  const base = path.dirname(path.resolve(file));
  return stripUndefined({
    plugins: f.plugins,
    pluginPaths: (f.plugin_paths as string[] | undefined)?.map((p) => path.resolve(base, p)),
    databaseUrl: f.database_url,
    dataDir: f.data_dir,
    port: f.port,
    host: f.host,
    catalogFile: f.catalog_file ? path.resolve(base, f.catalog_file) : undefined,
    statementTimeoutMs: f.statement_timeout_ms,
    rpc: f.rpc,
    archive: f.archive,
    logLevel: f.log_level,
    markets: f.markets
      ? stripUndefined({
          enabled: f.markets['enabled'],
          exchanges: f.markets['exchanges'],
          backfillHours: f.markets['backfill_hours'],
        })
      : undefined,
    metadata: f.metadata,
    batchBlocks: f.batch_blocks,
    batchOperations: f.batch_operations,
    baking: f.baking,
    watch: f.watch,
    apiMaxInflight: f.api_max_inflight,
    apiQueue: f.api_queue,
    apiQueueTimeoutMs: f.api_queue_timeout_ms,
    corsOrigins: f.cors_origins,
    streamMaxClients: f.stream_max_clients,
    streamMaxFilterEntries: f.stream_max_filter_entries,
    streamMaxFilterBytes: f.stream_max_filter_bytes,
  });
}

function fromEnv(env: NodeJS.ProcessEnv): Partial_ {
  return stripUndefined({
    plugins: env.TZIDX_PLUGINS ? splitList(env.TZIDX_PLUGINS) : undefined,
    pluginPaths: env.TZIDX_PLUGIN_PATHS ? splitList(env.TZIDX_PLUGIN_PATHS) : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.TZIDX_DATA_DIR,
    port: env.TZIDX_PORT !== undefined ? Number(env.TZIDX_PORT) : undefined,
    host: env.TZIDX_HOST,
    catalogFile: env.TZIDX_CATALOG,
    statementTimeoutMs:
      env.TZIDX_STATEMENT_TIMEOUT_MS !== undefined ? Number(env.TZIDX_STATEMENT_TIMEOUT_MS) : undefined,
    rpc: env.TZIDX_RPC,
    archive: env.TZIDX_ARCHIVE,
    logLevel: env.TZIDX_LOG_LEVEL,
    // Set but empty turns CORS off.
    corsOrigins: env.TZIDX_CORS_ORIGINS !== undefined ? splitList(env.TZIDX_CORS_ORIGINS) : undefined,
    streamMaxClients: envCount(env, 'TZIDX_STREAM_MAX_CLIENTS', 0),
    streamMaxFilterEntries: envCount(env, 'TZIDX_STREAM_MAX_FILTER_ENTRIES', 1),
    streamMaxFilterBytes: envCount(env, 'TZIDX_STREAM_MAX_FILTER_BYTES', 1),
  });
}

/** A whole number of at least `min` from the environment, or a ConfigError naming the variable. */
function envCount(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new ConfigError(`invalid ${name} '${raw}' (a whole number, at least ${min})`);
  }
  return n;
}

export function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/** The keys that are set: spread over defaults, an unset key keeps the default. */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
