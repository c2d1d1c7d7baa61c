#!/usr/bin/env -S node --max-semi-space-size=32
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, ParseArgsConfig } from 'node:util';
import type * as AppModule from '../app/TzidxApp';
import type { TzidxApp, AppOptions } from '../app/TzidxApp';
import type * as CatalogLoaderModule from '../catalog/CatalogLoader';
import type * as ChainModule from '../chain';
import type * as IndexerStatusModule from '../indexer/IndexerStatus';
import type * as ProgressReporterModule from '../indexer/ProgressReporter';
import type * as SandboxModule from '../sandbox';
import type * as DemoMetadataModule from '../sandbox/DemoMetadata';
import { CatalogError } from '../catalog/CatalogError';
import { ConfigError, InstanceConfig, loadConfig, PACKAGE_ROOT, splitList } from '../config/InstanceConfig';
import { discoverPlugins } from '../plugins/PluginDiscovery';
import { PluginError, resolvePlugins } from '../plugins/PluginResolver';
import { createLogger, Logger } from '../util/Logger';
import { PROFILE_NAMES, SandboxProfileName } from '../sandbox/profiles';
import { METADATA_IMPORT, MetadataImport } from '../extensions/MetadataImport';
import type { BlockSource } from '../chain';
import { limitHeapGrowth } from './heapGrowth';

// The application, the chain sources and the sandbox are loaded by the commands that run them
// (why: loading them takes about a second, which `--help`, `--version` and a rejected flag need not wait for).
/* eslint-disable @typescript-eslint/no-require-imports -- a require() here is the lazy load */
const load = {
  app: () => require('../app/TzidxApp') as typeof AppModule,
  catalogLoader: () => require('../catalog/CatalogLoader') as typeof CatalogLoaderModule,
  chain: () => require('../chain') as typeof ChainModule,
  indexerStatus: () => require('../indexer/IndexerStatus') as typeof IndexerStatusModule,
  progressReporter: () => require('../indexer/ProgressReporter') as typeof ProgressReporterModule,
  sandbox: () => require('../sandbox') as typeof SandboxModule,
  demoMetadata: () => require('../sandbox/DemoMetadata') as typeof DemoMetadataModule,
};
/* eslint-enable @typescript-eslint/no-require-imports */

function createApp(config: InstanceConfig, options: AppOptions): Promise<TzidxApp> {
  return load.app().TzidxApp.create(config, options);
}

const COMMON_HELP = `Common options:
  --config FILE       instance config (YAML); env TZIDX_CONFIG
  --port N            API port (default 8000); env TZIDX_PORT
  --host ADDR         API listen address (default 127.0.0.1); env TZIDX_HOST
  --data-dir DIR      embedded database location (default ./data); env TZIDX_DATA_DIR
  --database-url URL  Postgres instead of the embedded PGlite; env DATABASE_URL
  --plugins a,b       enabled plugins (default: all); env TZIDX_PLUGINS
  --log-level LEVEL   fatal|error|warn|info|debug|trace|silent; env TZIDX_LOG_LEVEL
  -h, --help          this help;  -v, --version: the version
Precedence: flags > environment > config file > defaults.`;

/** Parsed options; `_` holds the positionals of commands that take them (`metadata import FILE`). */
type Flags = Record<string, string | boolean | string[] | undefined>;

const COMMANDS: Record<
  string,
  {
    summary: string;
    usage: string;
    run: (config: InstanceConfig, log: Logger, flags: Flags) => Promise<void | number>;
    help?: string;
  }
> = {
  start: {
    summary: 'index the chain and serve the API',
    usage: 'tzidx start [--rpc URL | --archive DIR] [--from LEVEL] [--to LEVEL] [options]',
    help: `  --rpc URL           index from a Tezos node (archive node for history)
  --archive DIR       index recorded full-block JSON files (any names, ordered by level)
  --from LEVEL        first level when the database is empty; --to LEVEL: stop after it
  Without --rpc or --archive a built-in sandbox chain is indexed and kept in the data directory
  (sandbox.json): a restart continues it. --seed, --profile, --interval-ms as for \`tzidx sandbox\`.
`,
    run: async (config, log, flags) => {
      const level = (k: string): number | undefined => {
        if (flags[k] === undefined) return undefined;
        const n = Number(flags[k]);
        if (!Number.isInteger(n) || n < 0) throw new ConfigError(`invalid --${k} '${flags[k]}' (a block level)`);
        return n;
      };
      const range = { fromLevel: level('from'), toLevel: level('to') };
      const app = await createApp(config, { log });
      const input = await openBlockSource(config, range, log, flags);
      let url: string;
      try {
        if (input.demoMetadata && app.container.isRegistered(METADATA_IMPORT)) {
          await app.container.resolve<MetadataImport>(METADATA_IMPORT)(input.demoMetadata, 'the sandbox demo');
        }
        ({ url } = await app.api.listen(app.config.port, app.config.host));
      } catch (e) {
        // A port in use, say: the sandbox's server and baking timer would keep the process alive.
        await input.close();
        await app.close();
        throw e;
      }
      log.info(
        { url, database: app.db.description, source: input.description },
        `API listening on ${url}, indexing ${input.description}`,
      );
      if (input.hint) log.info(input.hint);
      const progress = new (load.progressReporter().ProgressReporter)(
        app.container.resolve(load.indexerStatus().IndexerStatus),
        log,
      );
      progress.start();
      const indexing = app.startIndexer(input.source, range).catch((e) => log.error({ err: e }, 'indexer stopped'));
      await app.startPlugins();
      await untilSignal(log, async () => {
        progress.stop();
        await app.stopIndexer();
        await indexing;
        await input.close();
        await app.close();
      });
    },
  },
  serve: {
    summary: 'serve the API only, read-only (for API replicas on a shared Postgres)',
    usage: 'tzidx serve [options]',
    run: async (config, log) => {
      const app = await createApp(config, { log, readOnly: true });
      await serveUntilSignal(app, log);
    },
  },
  migrate: {
    summary: 'create or update the database schemas from the catalog, then exit',
    usage: 'tzidx migrate [options]',
    run: async (config, log) => {
      const app = await createApp(config, { log });
      const m = app.migration!;
      log.info(
        {
          database: app.db.description,
          created: m.created.length,
          altered: m.altered.length,
          unchanged: m.unchanged.length,
        },
        'schemas migrated',
      );
      await app.close();
    },
  },
  sandbox: {
    summary: 'run the simulated Tezos node alone (node RPC paths on loopback)',
    usage:
      'tzidx sandbox [--port N] [--seed S] [--profile tiny|demo|mainnet-like] [--interval-ms N] [--reorg-rate R] [--reorg-depth N]',
    help: `  --port N            RPC port (default 8732, the node's)
  --seed S            chain seed: the same seed builds the same chain (default tzidx)
  --profile P         tiny | demo | mainnet-like (default demo)
  --interval-ms N     live block interval, 0 = no live baking (profile default)
  --reorg-rate R      probability of a reorg per live block (profile default)
  --reorg-depth N     maximum reorg depth (profile default)
`,
    run: async (_config, log, flags) => {
      const port = flags.port === undefined ? 8732 : portNumber(flags.port as string);
      const server = await load.sandbox().startSandboxServer({ port, ...sandboxFlags(flags) });
      const { headLevel: head, profile } = server.chain;
      log.info({ url: server.url, head, profile: profile.name }, `sandbox node on ${server.url}`);
      await untilSignal(log, () => server.close());
    },
  },
  metadata: {
    summary:
      'metadata maintenance: `tzidx metadata import FILE` loads entries (a JSON array, validated like POST /metadata)',
    usage: 'tzidx metadata import FILE [options]',
    run: async (config, log, flags) => {
      const [action, file, ...extra] = (flags._ as string[] | undefined) ?? [];
      if (action !== 'import' || file === undefined || extra.length > 0)
        throw new ConfigError('usage: tzidx metadata import FILE');
      let entries: unknown;
      try {
        entries = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        throw new ConfigError(`metadata import ${file}: ${(e as Error).message}`);
      }
      const app = await createApp(config, { log });
      try {
        if (!app.container.isRegistered(METADATA_IMPORT)) throw new ConfigError('the metadata plugin is not enabled');
        const n = await app.container.resolve<MetadataImport>(METADATA_IMPORT)(entries, file);
        log.info({ file, entries: n }, 'metadata imported');
      } finally {
        await app.close();
      }
    },
  },
  check: {
    summary: 'check the indexed data against its invariants (a family: defi), exit 1 on any violation',
    usage: 'tzidx check <family> [--pool ID] [options]',
    help: `  <family>            the checks to run: defi (DEX pools and positions, farms, lending markets)
  --pool ID           only this pool (e.g. KT1…_0)
  Prints each violation (check, subject, block, operation, detail) and a summary line per check.
`,
    run: async (config, log, flags) => {
      const [family, ...extra] = (flags._ as string[] | undefined) ?? [];
      if (!family || extra.length > 0) throw new ConfigError('name one family of checks, e.g. `tzidx check defi`');
      const app = await createApp(config, { log, readOnly: true });
      try {
        const checks = app.checks(family);
        if (checks.length === 0) throw new ConfigError(`no enabled plugin has '${family}' checks`);
        let violations = 0;
        for (const check of checks) {
          const all = await check.run({ pool: flags.pool as string | undefined });
          const found = all.filter((v) => !v.notChecked);
          const unchecked = all.length - found.length;
          for (const v of all) {
            const where = [
              v.height !== null && v.height !== undefined ? `block ${v.height}` : '',
              v.op ? `op ${v.op}` : '',
            ]
              .filter(Boolean)
              .join(' ');
            process.stdout.write(`${v.notChecked ? '# ' : ''}${check.name}\t${v.subject}\t${where}\t${v.detail}\n`);
          }
          const result =
            found.length === 0 ? (unchecked === 0 ? 'ok' : 'no violation') : `${found.length} violation(s)`;
          const rest = unchecked === 0 ? '' : `, ${unchecked} not checked`;
          process.stdout.write(`# ${check.name}: ${result}${rest} (${check.description})\n`);
          violations += found.length;
        }
        process.stdout.write(`# ${violations} violation(s) in ${checks.length} checks\n`);
        return violations === 0 ? 0 : 1;
      } finally {
        await app.close();
      }
    },
  },
  plugins: {
    summary: 'list the available plugins and whether they are enabled',
    usage: 'tzidx plugins [options]',
    help: `  Marks: * enabled, - enabled but empty (no tables, no routes, no handlers: nothing its manifest
  or tables.yaml declares), blank: disabled.
`,
    run: async (config) => {
      const available = discoverPlugins([load.app().BUILTIN_PLUGIN_DIR, ...config.pluginPaths]);
      const enabled = new Set(resolvePlugins(available, config.plugins).map((p) => p.manifest.name));
      const catalog = load.catalogLoader().loadCatalogFile(config.catalogFile);
      const declaring = new Set([...catalog.tables.values(), ...catalog.routes.values()].map((t) => t.plugin));
      for (const p of available) {
        const deps = p.manifest.dependsOn?.length ? ` (depends on ${p.manifest.dependsOn.join(', ')})` : '';
        // Empty: declares nothing, in tables.yaml (tables, routes) or in its manifest (table classes,
        // contributions; a manifest that does not say what setup() returns is not known to be empty).
        const { tableClasses, contributes } = p.manifest;
        const empty = !declaring.has(p.manifest.name) && !tableClasses?.length && contributes?.length === 0;
        const mark = !enabled.has(p.manifest.name) ? ' ' : empty ? '-' : '*';
        process.stdout.write(
          `${mark} ${p.manifest.name.padEnd(14)} ${p.manifest.description ?? ''}${deps}${empty ? ' [empty]' : ''}\n`,
        );
      }
    },
  },
};

/** Commands that take positional arguments (`metadata import FILE`, `check defi`). */
const POSITIONALS = new Set(['metadata', 'check']);

const OPTIONS: ParseArgsConfig['options'] = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  plugins: { type: 'string' },
  'log-level': { type: 'string' },
  rpc: { type: 'string' },
  archive: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  seed: { type: 'string' },
  profile: { type: 'string' },
  'interval-ms': { type: 'string' },
  'reorg-rate': { type: 'string' },
  'reorg-depth': { type: 'string' },
  pool: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The sandbox's chain flags (`tzidx sandbox`, and `tzidx start` without a node), checked. */
type SandboxChainFlags = Pick<
  SandboxModule.SandboxServerOptions,
  'seed' | 'profile' | 'blockIntervalMs' | 'reorgRate' | 'reorgDepth'
>;
function sandboxFlags(flags: Flags): SandboxChainFlags {
  const num = (k: string): number | undefined => (flags[k] === undefined ? undefined : Number(flags[k]));
  const profile = (flags.profile as string | undefined) ?? 'demo';
  if (!(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new ConfigError(`unknown profile '${profile}' (${PROFILE_NAMES.join(', ')})`);
  }
  for (const k of ['interval-ms', 'reorg-rate', 'reorg-depth']) {
    if (flags[k] !== undefined && !Number.isFinite(num(k))) throw new ConfigError(`invalid --${k} '${flags[k]}'`);
  }
  return {
    seed: (flags.seed as string | undefined) ?? 'tzidx',
    profile: profile as SandboxProfileName,
    blockIntervalMs: num('interval-ms'),
    reorgRate: num('reorg-rate'),
    reorgDepth: num('reorg-depth'),
  };
}

/** A port flag, named in the error as the user wrote it (not as `NaN`). */
function portNumber(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(port) || port > 65535) throw new ConfigError(`invalid port '${text}' (0–65535)`);
  return port;
}

/** The common options a command does not describe itself (sandbox's --port is the RPC port). */
function commonHelp(own: string | undefined): string {
  const flags = new Set([...(own ?? '').matchAll(/^\s+(--[\w-]+)/gm)].map((m) => m[1]));
  return COMMON_HELP.split('\n')
    .filter((line) => !flags.has(/^\s+(--[\w-]+)/.exec(line)?.[1] ?? ''))
    .join('\n');
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return `tzidx — Tezos indexer data service\n\nUsage: tzidx <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'tzidx <command> --help' for a command's options.\n\n${COMMON_HELP}\n`;
}

async function serveUntilSignal(app: TzidxApp, log: Logger): Promise<void> {
  // A port in use: close the database and the stream's LISTEN, so the process ends with the error.
  const { url } = await app.api.listen(app.config.port, app.config.host).catch(async (e: unknown) => {
    await app.close();
    throw e;
  });
  log.info(
    { url, database: app.db.description, plugins: app.plugins.map((p) => p.manifest.name) },
    `API listening on ${url}`,
  );
  await untilSignal(log, () => app.close());
}

/** The block source an instance indexes: a node, an archive folder, or the built-in sandbox. */
async function openBlockSource(
  config: InstanceConfig,
  range: { fromLevel?: number; toLevel?: number },
  log: Logger,
  flags: Flags,
): Promise<{
  source: BlockSource;
  description: string;
  hint?: string;
  demoMetadata?: unknown[];
  close(): Promise<void>;
}> {
  if (config.rpc && config.archive) throw new ConfigError('give either --rpc or --archive, not both');
  const { ArchiveBlockSource, RpcBlockSource } = load.chain();
  if (config.rpc) {
    const source = new RpcBlockSource(config.rpc, { logger: log });
    return { source, description: `node ${config.rpc}`, close: () => source.close() };
  }
  if (config.archive) {
    const source = await ArchiveBlockSource.open(config.archive, {
      fromLevel: range.fromLevel,
      toLevel: range.toLevel,
      logger: log,
    });
    return { source, description: `archive ${config.archive}`, close: () => source.close() };
  }
  // A new demo's history ends now, so time windows ending at the wall clock (e.g. /series) show it; a
  // restarted one continues the chain its data directory indexed, caught up to now (docs/sandbox.md).
  const now = new Date();
  const stateFile = path.join(config.dataDir, 'sandbox.json');
  const chain = sandboxFlags(flags);
  const options = { port: 0, ...chain, historyEndsAt: now, catchUpTo: now, stateFile };
  const sandbox = await load.sandbox().startSandboxServer(options);
  const source = new RpcBlockSource(sandbox.url, { logger: log });
  return {
    source,
    description: `the built-in sandbox chain at ${sandbox.url}`,
    demoMetadata: load.demoMetadata().demoMetadataEntries(sandbox.chain),
    hint: 'no --rpc given: indexing a simulated chain. Point at a real node with `tzidx start --rpc http://<node>:8732` or at recorded blocks with `--archive DIR`.',
    close: async () => {
      await source.close();
      await sandbox.close();
    },
  };
}

function untilSignal(log: Logger, close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      log.info('shutting down');
      void close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(usage());
    return command === undefined ? 1 : 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`tzidx ${version()}\n`);
    return 0;
  }
  const cmd = COMMANDS[command];
  if (!cmd) {
    process.stderr.write(`tzidx: unknown command '${command}'\n\n${usage()}`);
    return 2;
  }
  let values: Flags;
  try {
    const parsed = parseArgs({
      args: rest,
      options: OPTIONS,
      strict: true,
      allowPositionals: POSITIONALS.has(command),
    });
    values = { ...(parsed.values as Flags), ...(POSITIONALS.has(command) ? { _: parsed.positionals } : {}) };
  } catch (e) {
    process.stderr.write(`tzidx ${command}: ${(e as Error).message}\n\nUsage: ${cmd.usage}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${cmd.summary}\n\nUsage: ${cmd.usage}\n\n${cmd.help ?? ''}${commonHelp(cmd.help)}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`tzidx ${version()}\n`);
    return 0;
  }
  try {
    const str = (k: string): string | undefined => values[k] as string | undefined;
    const config = loadConfig({
      file: str('config'),
      env: process.env,
      flags: {
        port: str('port') !== undefined && command !== 'sandbox' ? portNumber(str('port')!) : undefined,
        host: str('host'),
        dataDir: str('data-dir'),
        databaseUrl: str('database-url'),
        plugins: str('plugins') !== undefined ? splitList(str('plugins')!) : undefined,
        logLevel: str('log-level'),
        rpc: str('rpc'),
        archive: str('archive'),
      },
    });
    return (await cmd.run(config, createLogger(config.logLevel), values)) ?? 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof CatalogError || e instanceof PluginError) {
      process.stderr.write(`tzidx ${command}: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`tzidx ${command}: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

if (require.main === module) {
  limitHeapGrowth();
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
