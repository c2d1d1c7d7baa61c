import { setMaxListeners } from 'node:events';
import * as path from 'node:path';
import { container as rootContainer, DependencyContainer } from 'tsyringe';
import type { ReconciliationCheck } from '../check/Reconciliation';
import { Catalog } from '../catalog/Catalog';
import { loadCatalogFile } from '../catalog/CatalogLoader';
import { catalogFromClasses } from '../catalog/decorators';
import { InstanceConfig, stripUndefined } from '../config/InstanceConfig';
import { mountDeclaredRoutes } from '../explorer/DeclaredRoutes';
import { ApiServer } from '../http/ApiServer';
import { ChainState } from '../indexer/ChainState';
import { CollectionResponder } from '../http/CollectionResponder';
import { ObjectResponder } from '../http/ObjectResponder';
import { RouteRegistry } from '../http/RouteRegistry';
import { refuseWrites } from '../http/ReadOnlyGuard';
import { Registry } from 'prom-client';
import { processMetrics } from './processMetrics';
import { ApiReference } from '../openapi/ApiReference';
import { LiveStream } from '../stream/LiveStream';
import { StreamRecorder } from '../stream/StreamRecorder';
import { contributionMismatch, PluginClass, PluginContribution, TzidxPlugin } from '../plugins/Plugin';
import { discoverPlugins } from '../plugins/PluginDiscovery';
import { resolvePlugins } from '../plugins/PluginResolver';
import { TABLE_PROFILE } from '../query/ListProfile';
import { SeriesResponder } from '../series/SeriesResponder';
import { SeriesRollups } from '../series/SeriesRollups';
import { Database } from '../storage/Database';
import { BlockSource } from '../chain';
import { BlockDispatcher } from '../indexer/BlockDispatcher';
import { ContractDirectory } from '../indexer/watch/ContractDirectory';
import { WatchList } from '../indexer/watch/WatchList';
import { DEFAULT_INDEXER_OPTIONS, Indexer, IndexerOptions } from '../indexer/Indexer';
import { IndexerStatus } from '../indexer/IndexerStatus';
import { UndecodableValues } from '../indexer/UndecodableValues';
import { SyncFollower } from '../indexer/SyncFollower';
import { MigrationReport, SchemaMigrator } from '../storage/SchemaMigrator';
import { Logger } from '../util/Logger';
import { CONFIG, LOGGER } from './tokens';
import { ACCOUNT_METADATA, NO_ACCOUNT_METADATA } from '../extensions/AccountMetadata';
import { BLOCK_RIGHTS, NO_BLOCK_RIGHTS } from '../extensions/BlockRights';
import { CycleFigures } from '../extensions/CycleFigures';

/** Built-in plugins, compiled next to the framework (dist/plugins). */
export const BUILTIN_PLUGIN_DIR = path.resolve(__dirname, '..', '..', 'plugins');
const VERSION = '0.1.0';

export interface AppOptions {
  log: Logger;
  /** Plugin classes to choose from; default: discovered in the built-in and configured directories. */
  available?: readonly PluginClass[];
  /** Serve only: no migrations, read-only database sessions (API replicas). */
  readOnly?: boolean;
}

/**
 * The composition root of an instance: picks the enabled plugins, builds their catalog, opens and
 * migrates the database, lets each plugin register its services and routes, and assembles the API.
 */
export class TzidxApp {
  private constructor(
    readonly config: InstanceConfig,
    readonly container: DependencyContainer,
    readonly db: Database,
    readonly catalog: Catalog,
    readonly plugins: readonly PluginClass[],
    readonly api: ApiServer,
    /** Every mounted route (what /openapi.json documents). */
    readonly routes: RouteRegistry,
    readonly migration: MigrationReport | undefined,
    readonly dispatcher: BlockDispatcher,
    readonly stream: LiveStream,
    private readonly log: Logger,
    private readonly contributions: readonly PluginContribution[],
    private readonly follower?: SyncFollower,
  ) {}

  /**
   * Starts indexing from a source in the background; resolves when indexing ends (source exhausted,
   * `toLevel` reached, failure, or `stopIndexer()`).
   */
  startIndexer(source: BlockSource, options: Partial<IndexerOptions> = {}): Promise<void> {
    if (this.indexerRun) throw new Error('the indexer is already running');
    const controller = new AbortController();
    // Every prefetched block request listens on this signal at once: not a leak.
    setMaxListeners(0, controller.signal);
    const indexer = new Indexer(
      this.db,
      this.catalog,
      this.dispatcher,
      source,
      this.container.resolve(IndexerStatus),
      this.container.resolve(ChainState),
      this.log.child({ component: 'indexer' }),
      {
        ...DEFAULT_INDEXER_OPTIONS,
        ...(this.config.batchBlocks ? { batchBlocks: this.config.batchBlocks } : {}),
        ...(this.config.batchOperations ? { batchOperations: this.config.batchOperations } : {}),
        ...options,
      },
    );
    const done = indexer.run(controller.signal).finally(() => {
      this.indexerRun = undefined;
    });
    this.indexerRun = { controller, done };
    return done;
  }

  async stopIndexer(): Promise<void> {
    const run = this.indexerRun;
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  private indexerRun?: { controller: AbortController; done: Promise<void> };

  /** Starts the plugins' work that blocks do not drive (e.g. market polling); `tzidx start` only. */
  async startPlugins(): Promise<void> {
    for (const plugin of this.contributions) await plugin.start?.();
  }

  /** The enabled plugins' reconciliation checks of one family (`tzidx check <family>`). */
  checks(family: string): ReconciliationCheck[] {
    return this.contributions.flatMap((plugin) => plugin.checks?.() ?? []).filter((c) => c.family === family);
  }

  static async create(config: InstanceConfig, opts: AppOptions): Promise<TzidxApp> {
    const available = opts.available ?? discoverPlugins([BUILTIN_PLUGIN_DIR, ...config.pluginPaths]);
    const plugins = resolvePlugins(available, config.plugins);
    const catalog = buildCatalog(config, plugins);
    const db = await Database.open({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      statementTimeoutMs: config.statementTimeoutMs,
      readOnly: opts.readOnly,
      log: opts.log,
    });
    try {
      const migration = opts.readOnly ? undefined : await new SchemaMigrator(db.writer).migrate(catalog);
      const container = rootContainer.createChildContainer();
      container.registerInstance(Database, db);
      container.registerInstance(Catalog, catalog);
      container.registerInstance(ChainState, new ChainState());
      const status = new IndexerStatus();
      container.registerInstance(IndexerStatus, status);
      container.registerInstance(UndecodableValues, new UndecodableValues(status, opts.log));
      container.registerInstance(CONFIG, config);
      container.registerInstance(LOGGER, opts.log);
      container.registerInstance(ACCOUNT_METADATA, NO_ACCOUNT_METADATA);
      container.registerInstance(BLOCK_RIGHTS, NO_BLOCK_RIGHTS);
      container.registerInstance(CycleFigures, new CycleFigures());
      const stream = await LiveStream.open(db, {
        readOnly: !!opts.readOnly,
        databaseUrl: config.databaseUrl,
        log: opts.log.child({ component: 'stream' }),
        limits: stripUndefined({
          maxClients: config.streamMaxClients,
          maxFilterEntries: config.streamMaxFilterEntries,
          maxFilterBytes: config.streamMaxFilterBytes,
        }),
      });
      // Plugins resolve the recorder to publish their own stream events.
      container.registerInstance(StreamRecorder, stream.recorder);
      const contributions: PluginContribution[] = [];
      for (const cls of plugins) {
        const plugin = container.resolve(cls as unknown as new () => TzidxPlugin);
        const log = opts.log.child({ plugin: cls.manifest.name });
        const contribution = await plugin.setup({ container, config, catalog, log });
        const mismatch = contributionMismatch(cls.manifest, contribution);
        if (mismatch) throw new Error(mismatch);
        contributions.push(contribution);
      }
      const contracts = new ContractDirectory(
        new WatchList(config.watch),
        opts.log.child({ component: 'contracts' }),
        container.resolve(UndecodableValues),
      );
      const dispatcher = new BlockDispatcher(contracts);
      // First, so a block's event precedes the events plugins publish while handling it.
      stream.attach(dispatcher);
      for (const plugin of contributions) plugin.handlers?.(dispatcher);
      // Series rollups follow the raw tables in the same transactions, after every plugin wrote.
      const rollups = container.resolve(SeriesRollups);
      dispatcher.afterBatch((trx) => rollups.update(trx).then(() => undefined));
      dispatcher.afterRollback((trx, height) => rollups.rollback(trx, height));
      dispatcher.derived.check(catalog);
      const routes = new RouteRegistry(
        catalog,
        container.resolve(CollectionResponder),
        container.resolve(ObjectResponder),
      );
      // Before any route: router middleware runs in the order it was added.
      if (opts.readOnly) routes.router.use(refuseWrites());
      routes.tables('/tables', TABLE_PROFILE);
      routes.series('/series', container.resolve(SeriesResponder));
      registerStatusRoutes(routes, container.resolve(IndexerStatus), db);
      contributions.forEach((plugin, i) => routes.mountedBy(plugins[i].manifest.name, () => plugin.routes?.(routes)));
      mountDeclaredRoutes(routes, catalog, db);
      stream.mount(routes);
      // Last: the reference documents every route mounted above, itself included.
      const reference = new ApiReference();
      reference.mount(routes);
      reference.build({ catalog, routes: routes.mounted, plugins: plugins.map((p) => p.manifest), version: VERSION });
      const limits = {
        maxInflight: config.apiMaxInflight,
        queue: config.apiQueue,
        queueTimeoutMs: config.apiQueueTimeoutMs,
      };
      const api = new ApiServer(routes, container.resolve(ChainState), opts.log, VERSION, limits, config.corsOrigins);
      let follower: SyncFollower | undefined;
      if (opts.readOnly) {
        follower = new SyncFollower(
          db.reader,
          container.resolve(ChainState),
          container.resolve(IndexerStatus),
          opts.log.child({ component: 'sync-follower' }),
          () => stream.hub.notify(),
        );
        await follower.start();
      }
      await stream.start();
      return new TzidxApp(
        config,
        container,
        db,
        catalog,
        plugins,
        api,
        routes,
        migration,
        dispatcher,
        stream,
        opts.log,
        contributions,
        follower,
      );
    } catch (e) {
      await db.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    this.follower?.stop();
    await this.stopIndexer();
    for (const plugin of this.contributions) await plugin.stop?.();
    await this.stream.close();
    await this.api.close();
    await this.db.close();
  }
}

/** The indexer's state for people (/explorer/status) and for Prometheus (/metrics). */
function registerStatusRoutes(routes: RouteRegistry, status: IndexerStatus, db: Database): void {
  routes.get(
    '/explorer/status',
    'GetStatus',
    (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = status.toJSON();
    },
    { summary: 'the indexer: mode, status, node head (blocks), indexed height, progress' },
  );
  const metrics = Registry.merge([status.registry, db.metrics.registry, processMetrics()]);
  routes.get(
    '/metrics',
    'GetMetrics',
    async (ctx) => {
      ctx.type = metrics.contentType;
      ctx.body = await metrics.metrics();
    },
    { summary: 'Prometheus metrics', mediaType: 'text/plain' },
  );
}

/** tables.yaml plus the decorator-declared tables of the loaded plugins, restricted to those plugins. */
function buildCatalog(config: InstanceConfig, plugins: readonly PluginClass[]): Catalog {
  const parts = [loadCatalogFile(config.catalogFile)];
  for (const p of plugins) {
    if (p.manifest.tableClasses?.length) parts.push(catalogFromClasses(p.manifest.name, [...p.manifest.tableClasses]));
  }
  return Catalog.merge(parts).forPlugins(new Set(plugins.map((p) => p.manifest.name)));
}
