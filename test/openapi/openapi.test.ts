import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { METADATA_IMPORT, MetadataImport } from '../../framework/extensions/MetadataImport';
import { demoMetadataEntries } from '../../framework/sandbox/DemoMetadata';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import type { PluginClass } from '../../framework/plugins/Plugin';
import { dexFixture } from '../defi-dex/support/DexFixture';
import { DexFixturePlugin, fixtureHolder } from '../defi-dex/support/DexFixturePlugin';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

type Op = {
  parameters?: Array<{ name: string; in: string; schema?: { enum?: unknown[] } }>;
  'x-tzidx-params-from'?: { table: string; columns: Record<string, string> };
};
type Doc = {
  paths: Record<string, { get: Op }>;
  info: Record<string, unknown>;
  components: { schemas: Record<string, { properties?: Record<string, { 'x-operators'?: string[] }> }> };
};

/** koa-router path syntax → OpenAPI's, written independently of the generator's conversion. */
function documentedForm(layerPath: string): string {
  return layerPath.replace('{.:format}', '').replace(/:([A-Za-z_]+)/g, '{$1}');
}

describe(`OpenAPI document (${BACKEND})`, function () {
  this.timeout(180_000);
  let t: TestInstance;
  let doc: Doc;

  before(async () => {
    // DEX rows (pools, trades, positions) so the DEX routes have ids to be called with; no token rows
    // (the newest token row gives /metadata/{contract}/{id} its ids and should be a chain token).
    fixtureHolder.fixture = { ...dexFixture(Date.now(), 40), tokens: [] };
    t = await startTestInstance({
      plugins: [...discoverPlugins([BUILTIN_PLUGIN_DIR]), DexFixturePlugin as unknown as PluginClass],
    });
    const chain = new SandboxChain({ seed: 'openapi', profile: 'tiny' });
    chain.bake(40);
    await indexSandbox(t, chain);
    // What `npm start` imports on the sandbox: the demo's metadata entries.
    await t.app.container.resolve<MetadataImport>(METADATA_IMPORT)(demoMetadataEntries(chain), 'demo');
    // Plugins that poll outside the chain (markets: the simulated exchange) fill their tables too.
    await t.app.startPlugins();
    for (let i = 0; i < 300 && ((await (await t.get('/markets/tickers')).json()) as unknown[]).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const res = await t.get('/openapi.json');
    expect(res.status).to.equal(200);
    doc = (await res.json()) as Doc;
  });
  after(() => t?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    // An ES module: loaded natively (module node16 keeps import() as is).
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<typeof validator.validate>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it("documents every table with its columns, types and each type's operators, and every series", () => {
    for (const table of t.app.catalog.tables.values()) {
      expect(doc.paths, table.code).to.have.property(`/tables/${table.code}`);
      const columns = doc.components.schemas[`${table.code}.columns`].properties!;
      expect(Object.keys(columns)).to.deep.equal(table.columns.map((c) => c.name));
      for (const c of table.columns)
        expect(columns[c.name]['x-operators'], `${table.code}.${c.name}`).to.deep.equal([...c.type.operators]);
      const filters = Object.keys(doc.components.schemas[`${table.code}.filters`].properties!);
      for (const c of table.columns) for (const op of c.type.operators) expect(filters).to.include(`${c.name}.${op}`);
    }
    for (const s of t.app.catalog.series.values()) expect(doc.paths, s.code).to.have.property(`/series/${s.code}`);
  });

  it('documents every route the server answers', () => {
    const layers = (t.app.routes.router as unknown as { stack: Array<{ path: string; methods: string[] }> }).stack;
    expect(layers.length).to.be.greaterThan(20);
    for (const layer of layers) {
      if (!layer.methods.includes('GET')) continue;
      if (layer.path === '/tables/:table') {
        for (const code of t.app.catalog.tables.keys()) expect(doc.paths).to.have.property(`/tables/${code}`);
      } else if (layer.path === '/series/:series') {
        for (const code of t.app.catalog.series.keys()) expect(doc.paths).to.have.property(`/series/${code}`);
      } else {
        expect(doc.paths, layer.path).to.have.property(documentedForm(layer.path));
      }
    }
  });

  it('every documented path answers with valid parameters (values taken from the indexed data)', async () => {
    let withParams = 0;
    const failures: string[] = [];
    for (const [path, { get: op }] of Object.entries(doc.paths)) {
      if (path === '/stream') continue; // an endless response; test/stream covers it
      const names = (op.parameters ?? []).filter((p) => p.in === 'path');
      const values: Record<string, string> = {};
      const source = op['x-tzidx-params-from'];
      if (source) {
        const cols = Object.values(source.columns);
        const res = await t.get(`/tables/${source.table}?columns=${cols.join(',')}&limit=100&order=desc`);
        // The newest row whose values are all set (implicit operations have no hash…).
        const rows = ((await res.json()) as unknown[][]).filter((r) => r.every((v) => v !== null));
        if (rows.length === 0) {
          failures.push(`${path}: no ${source.table} row indexed to take parameters from`);
          continue;
        }
        Object.keys(source.columns).forEach((name, i) => (values[name] = String(rows[0][i])));
      }
      for (const p of names)
        values[p.name] ??= p.schema?.enum ? String(p.schema.enum[0]) : (undefined as unknown as string);
      const missing = names.filter((p) => values[p.name] === undefined).map((p) => p.name);
      if (missing.length) {
        failures.push(
          `${path}: no source of valid values for ${missing.join(', ')} (declare RouteDoc.params or pathParams)`,
        );
        continue;
      }
      if (names.length) withParams++;
      const url = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n]));
      const res = await t.get(url);
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(`${url}: ${res.status}`);
    }
    expect(failures).to.deep.equal([]);
    expect(withParams).to.be.greaterThan(15);
  });

  it("shows only enabled plugins: a disabled plugin's tables and routes are not in the document", async () => {
    const small = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), enabled: ['core-chain'] });
    try {
      const d = (await (await small.get('/openapi.json')).json()) as Doc;
      const plugins = (d.info['x-tzidx-plugins'] as Array<{ name: string }>).map((p) => p.name);
      expect(plugins).to.deep.equal(['core-chain']);
      expect(d.paths).to.have.property('/tables/block');
      expect(d.paths).not.to.have.property('/tables/bigmap_values');
      expect(
        Object.keys(d.paths).filter((p) => p.startsWith('/explorer/bigmap') || p.startsWith('/explorer/election')),
      ).to.deep.equal([]);
      expect((await small.get('/tables/bigmap_values')).status).to.equal(404);
    } finally {
      await small.close();
    }
  });
});
