import { injectable } from 'tsyringe';
import {
  ACCOUNT_METADATA,
  Database,
  METADATA_IMPORT,
  MetadataImport,
  PluginContext,
  PluginContribution,
  PluginManifest,
  TzidxPlugin,
  UndecodableValues,
} from '../../framework';
import { ChainMetadataIndexer } from './chain/ChainMetadataIndexer';
import { ChainMetadata } from './ChainMetadata';
import { MetadataEntries } from './MetadataEntries';
import { MetadataImporter } from './MetadataImporter';
import { MetadataLookup } from './MetadataLookup';
import { MetadataRoutes } from './MetadataRoutes';
import { loadMetadataSettings } from './MetadataSettings';
import { PluginTables } from './PluginTables';
import { DocumentFetcher } from './resolver/DocumentFetcher';
import { DocumentResolver } from './resolver/DocumentResolver';
import { SchemaRegistry } from './SchemaRegistry';
import { TokenRoutes } from './TokenRoutes';
import { WriteAccess } from './WriteAccess';

/**
 * Account and token metadata: schema-validated entries (read by everyone, written on private
 * instances with an API key), TZIP-16/21 metadata from the chain with a token registry, and the
 * metadata of named accounts on explorer objects (`meta=1`). See docs/metadata.md.
 */
@injectable()
export class MetadataPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'metadata',
    description: 'Account and token metadata (schemas, private-instance writes, TZIP-16/21 from chain, tokens)',
    dependsOn: ['core-chain'],
    contributes: ['handlers', 'routes'],
  };

  constructor(
    private readonly db: Database,
    private readonly undecodable: UndecodableValues,
  ) {}

  async setup(ctx: PluginContext): Promise<PluginContribution> {
    const settings = loadMetadataSettings(ctx.config.metadata, process.env);
    const tables = new PluginTables(ctx.catalog);
    const schemas = new SchemaRegistry(settings.schemaDir);
    const entries = new MetadataEntries(this.db, tables);
    const chain = new ChainMetadata(this.db, tables);
    const importer = new MetadataImporter(entries, schemas);
    for (const file of settings.importFiles)
      ctx.log.info({ file, entries: await importer.importFile(file) }, 'metadata imported');
    ctx.container.registerInstance(ACCOUNT_METADATA, new MetadataLookup(entries, chain));
    ctx.container.registerInstance<MetadataImport>(METADATA_IMPORT, (list, source) => importer.import(list, source));
    const resolver = new DocumentResolver(
      this.db.writer,
      tables,
      new DocumentFetcher(settings.resolver),
      settings.resolver,
      ctx.log,
    );
    ctx.container.registerInstance(DocumentResolver, resolver);
    const routes = new MetadataRoutes(entries, chain, schemas, new WriteAccess(settings), settings.maxBodyBytes);
    const tokens = new TokenRoutes(chain);
    const indexer = new ChainMetadataIndexer((kind, detail) => this.undecodable.record('metadata', kind, detail));
    return {
      handlers: (registry) => {
        registry.blocksStart((blocks, ctx) => indexer.readAhead(blocks, ctx));
        registry.onBlock((block, ctx) => indexer.index(block, ctx));
        // Off-chain documents are fetched after the batch that named them committed, never inside it.
        if (settings.resolver.enabled) registry.afterBatch(() => void setImmediate(() => resolver.kick()));
      },
      routes: (r) => {
        routes.register(r);
        tokens.register(r);
      },
    };
  }
}
