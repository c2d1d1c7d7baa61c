import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TzidxApp } from '../../framework/app/TzidxApp';
import { DEFAULTS, InstanceConfig } from '../../framework/config/InstanceConfig';
import { PluginClass } from '../../framework/plugins/Plugin';
import { BulkWriter, Row } from '../../framework/storage/BulkWriter';
import { Logger, silentLogger } from '../../framework/util/Logger';
import { createTestDatabase, TestDatabase } from './TestDatabase';

export interface TestInstance {
  app: TzidxApp;
  url: string;
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  insert(table: string, rows: Row[]): Promise<void>;
  close(): Promise<void>;
}

/** A catalog with no tables: for instances whose test plugins declare everything they need. */
export const EMPTY_CATALOG = 'version: 1\nplugins: {}\n';

/** A whole instance (catalog, plugins, database, API on an ephemeral port) for API-level tests. */
export async function startTestInstance(opts: {
  catalogYaml?: string;
  plugins: PluginClass[];
  enabled?: string[];
  config?: Partial<InstanceConfig>;
  /** Where the instance logs (nowhere by default). */
  log?: Logger;
}): Promise<TestInstance> {
  let catalogFile = DEFAULTS.catalogFile;
  let tmp: string | undefined;
  if (opts.catalogYaml !== undefined) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-test-'));
    catalogFile = path.join(tmp, 'tables.yaml');
    fs.writeFileSync(catalogFile, opts.catalogYaml);
  }
  const db: TestDatabase = await createTestDatabase();
  const config: InstanceConfig = {
    ...DEFAULTS,
    dataDir: ':memory:',
    catalogFile,
    databaseUrl: db.url,
    plugins: opts.enabled,
    ...opts.config,
  };
  let app: TzidxApp;
  try {
    app = await TzidxApp.create(config, { log: opts.log ?? silentLogger, available: opts.plugins });
  } catch (e) {
    await db.drop();
    throw e;
  }
  const { url } = await app.api.listen(0, '127.0.0.1');
  const writer = new BulkWriter(app.db.kind);
  return {
    app,
    url,
    get: (p, headers) => fetch(url + p, { headers }),
    insert: async (code, rows) => {
      const table = app.catalog.table(code);
      if (!table) throw new Error(`no table ${code}`);
      await app.db.writer.transaction((trx) => writer.append(trx, table, rows));
    },
    close: async () => {
      await app.close();
      await db.drop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** A plugin class with just a manifest, for tests that need named plugins. */
export function manifestPlugin(name: string, dependsOn: string[] = []): PluginClass {
  return class {
    static readonly manifest = { name, dependsOn };
    setup() {
      return {};
    }
  } as unknown as PluginClass;
}
