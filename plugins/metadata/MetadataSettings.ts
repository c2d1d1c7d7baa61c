import { createHash } from 'node:crypto';
import Ajv from 'ajv';
import { ConfigError } from '../../framework';

/** How the background resolver fetches off-chain documents. */
export interface ResolverSettings {
  enabled: boolean;
  /** Base URL ipfs:// URIs are fetched through (`<gateway>/ipfs/<cid>/<path>`). */
  ipfsGateway: string;
  timeoutMs: number;
  maxBytes: number;
  /** Attempts per document before it is given up (kept with its error). */
  attempts: number;
  /** Delay before the first retry; doubled for every further one. */
  backoffMs: number;
}

/** The metadata plugin's settings: config file key `metadata`, overridden by TZIDX_METADATA_* variables. */
export interface MetadataSettings {
  /** Private instance: write routes are open to requests with one of the API keys. */
  writes: boolean;
  /** SHA-256 digests (hex) of the API keys; the keys themselves are never kept. */
  keyDigests: Buffer[];
  maxBodyBytes: number;
  schemaDir?: string;
  /** Entry files imported at start, validated like a POST. */
  importFiles: string[];
  resolver: ResolverSettings;
}

const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    writes: { type: 'boolean' },
    api_keys: { type: 'array', items: { type: 'string', minLength: 1 } },
    max_body_bytes: { type: 'integer', minimum: 1 },
    schema_dir: { type: 'string' },
    import: { type: 'array', items: { type: 'string' } },
    resolver: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        ipfs_gateway: { type: 'string', pattern: '^https?://' },
        timeout_ms: { type: 'integer', minimum: 1 },
        max_bytes: { type: 'integer', minimum: 1 },
        attempts: { type: 'integer', minimum: 1 },
        backoff_ms: { type: 'integer', minimum: 0 },
      },
    },
  },
};
/** The config file's `metadata` key, as FILE_SCHEMA admits it. */
interface MetadataFile {
  writes?: boolean;
  api_keys?: string[];
  max_body_bytes?: number;
  schema_dir?: string;
  import?: string[];
  resolver?: {
    enabled?: boolean;
    ipfs_gateway?: string;
    timeout_ms?: number;
    max_bytes?: number;
    attempts?: number;
    backoff_ms?: number;
  };
}
const validateFile = new Ajv().compile<MetadataFile>(FILE_SCHEMA);

/** A key as kept: `sha256:<hex>` is already a digest (what config files should hold); anything else is hashed now. */
export function keyDigest(key: string): Buffer {
  const m = /^sha256:([0-9a-fA-F]{64})$/.exec(key);
  return m ? Buffer.from(m[1], 'hex') : createHash('sha256').update(key, 'utf8').digest();
}

export function loadMetadataSettings(
  file: Record<string, unknown> | undefined,
  env: NodeJS.ProcessEnv,
): MetadataSettings {
  const f: unknown = file ?? {};
  if (!validateFile(f)) {
    const err = validateFile.errors![0];
    throw new ConfigError(`config key metadata${err.instancePath}: ${err.message}`);
  }
  const r = f.resolver ?? {};
  const list = (s: string | undefined): string[] | undefined =>
    s
      ? s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined;
  const bool = (s: string | undefined): boolean | undefined =>
    s === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(s.toLowerCase());
  const keys = [...(f.api_keys ?? []), ...(list(env.TZIDX_METADATA_API_KEYS) ?? [])];
  return {
    writes: bool(env.TZIDX_METADATA_WRITES) ?? f.writes ?? false,
    keyDigests: keys.map(keyDigest),
    maxBodyBytes: f.max_body_bytes ?? 1 << 20,
    schemaDir: env.TZIDX_METADATA_SCHEMA_DIR ?? f.schema_dir,
    importFiles: list(env.TZIDX_METADATA_IMPORT) ?? f.import ?? [],
    resolver: {
      enabled: bool(env.TZIDX_METADATA_RESOLVER) ?? r.enabled ?? true,
      ipfsGateway: (env.TZIDX_METADATA_IPFS_GATEWAY ?? r.ipfs_gateway ?? 'https://ipfs.io').replace(/\/+$/, ''),
      timeoutMs: r.timeout_ms ?? 10_000,
      maxBytes: r.max_bytes ?? 1 << 20,
      attempts: r.attempts ?? 3,
      backoffMs: r.backoff_ms ?? 60_000,
    },
  };
}
