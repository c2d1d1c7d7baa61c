import { expect } from 'chai';
import { Catalog } from '../../framework/catalog/Catalog';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { loadCatalogFile, parseCatalog } from '../../framework/catalog/CatalogLoader';
import { catalogFromClasses, column, table } from '../../framework/catalog/decorators';
import { DEFAULTS } from '../../framework/config/InstanceConfig';
import { leadsIndex } from '../../framework/query/TableQueryEngine';

const SPEC_TABLES = [
  'balance',
  'chain',
  'supply',
  'block',
  'op',
  'account',
  'contract',
  'constant',
  'flow',
  'rights',
  'snapshot',
  'income',
  'election',
  'proposal',
  'vote',
  'ballot',
  'bigmaps',
  'bigmap_values',
  'bigmap_updates',
];
// Beyond the spec's list: contract events and storage history (tzindex has both), protocol constants,
// ticket balance changes, the voters of each voting period.
const EXTRA_TABLES = [
  'event',
  'protocol',
  'storage',
  'ticket_update',
  'voter',
  'market_ticker',
  'market_candle',
  'metadata',
  'contract_metadata',
  'token',
  'metadata_documents',
  'dex_pool',
  'dex_event',
  'dex_trade',
  'dex_position',
  'farm_pool',
  'farm_event',
  'farm_position',
  'lend_pool',
  'lend_event',
  'lend_position',
];

function yamlWith(columns: string, extra = ''): string {
  return `version: 1\nplugins:\n  p:\n    tables:\n      t:\n${extra}        columns:\n${columns}`;
}
const ROW_ID = '          - { name: row_id, type: uint64 }\n';

/** A catalog with one table `t` (row_id, a) and one declared route with the given properties. */
function routeYaml(props: string): string {
  return `${yamlWith(`${ROW_ID}          - { name: a, type: address }\n`)}    routes:\n      - { path: /x/:id, scope: GetX, table: t, ${props} }\n`;
}
const OBJECT = 'kind: object, params: { id: { column: row_id } }, not_found: no x';

/** Table `b` (heights and a value `c`, indexed unless told), then `t`, whose `c` follows b's as declared. */
function followsYaml(
  follows: string,
  tExtra = '        height_column: h\n',
  bIndexes = '        indexes: [[c]]\n',
): string {
  const b = `      b:\n        height_column: h\n${bIndexes}        columns:\n${ROW_ID}          - { name: h, type: uint64 }\n          - { name: c, type: uint64 }\n`;
  return `version: 1\nplugins:\n  p:\n    tables:\n${b}      t:\n${tExtra}        columns:\n${ROW_ID}          - { name: h, type: uint64 }\n          - { name: c, type: uint64, follows_height: ${follows} }\n`;
}
const FOLLOWS = '{ table: b, column: c }';

function rejection(text: string): CatalogError {
  try {
    parseCatalog(text);
  } catch (e) {
    expect(e).to.be.instanceOf(CatalogError);
    return e as CatalogError;
  }
  throw new Error('catalog was accepted');
}

describe('catalog', function () {
  it('the shipped tables.yaml declares the 19 table codes of the spec, event, protocol, storage, ticket_update, voter, the markets and the metadata tables, and the 8 series', function () {
    const catalog = loadCatalogFile(DEFAULTS.catalogFile);
    expect([...catalog.tables.keys()].sort()).to.deep.equal([...SPEC_TABLES, ...EXTRA_TABLES].sort());
    const series = ['balance', 'block', 'chain', 'dex_trades', 'flow', 'market_ohlcv', 'op', 'supply'];
    expect([...catalog.series.keys()].sort()).to.deep.equal(series);
    expect(catalog.table('account')!.column('n_tx_success'), 'the original typo n_tx_successs is fixed').to.not.equal(
      undefined,
    );
    for (const t of catalog.tables.values()) expect(t.columns[0].name).to.equal('row_id');
  });

  const violations: Array<[string, string, string]> = [
    [
      'unknown type',
      yamlWith(`${ROW_ID}          - { name: a, type: varchar }\n`),
      '/plugins/p/tables/t/columns/1/type',
    ],
    [
      'bad enum spelled as a flow list',
      yamlWith(`${ROW_ID}          - { name: a, type: enum(x,y) }\n`),
      '/plugins/p/tables/t/columns/1',
    ],
    [
      'bad fixed decimals',
      yamlWith(`${ROW_ID}          - { name: a, type: "fixed(99)" }\n`),
      '/plugins/p/tables/t/columns/1/type',
    ],
    [
      'unknown hash kind',
      yamlWith(`${ROW_ID}          - { name: a, type: "hash(nope)" }\n`),
      '/plugins/p/tables/t/columns/1/type',
    ],
    [
      'bad column name',
      yamlWith(`${ROW_ID}          - { name: "A b", type: int64 }\n`),
      '/plugins/p/tables/t/columns/1/name',
    ],
    [
      'duplicate column',
      yamlWith(`${ROW_ID}          - { name: a, type: int64 }\n          - { name: a, type: int64 }\n`),
      '/plugins/p/tables/t/columns/2/name',
    ],
    ['missing row_id first', yamlWith('          - { name: a, type: int64 }\n'), '/plugins/p/tables/t/columns/0'],
    [
      'unknown property',
      yamlWith(`${ROW_ID}          - { name: a, type: int64, colour: red }\n`),
      '/plugins/p/tables/t/columns/1',
    ],
    ['index on unknown column', yamlWith(ROW_ID, '        indexes: [[zz]]\n'), '/plugins/p/tables/t/indexes/0'],
    ['bad kind', yamlWith(ROW_ID, '        kind: sometimes\n'), '/plugins/p/tables/t/kind'],
    ['unknown height column', yamlWith(ROW_ID, '        height_column: h\n'), '/plugins/p/tables/t/height_column'],
    [
      'derived from an unknown table',
      yamlWith(ROW_ID, '        derived_from: [nope]\n'),
      '/plugins/p/tables/t/derived_from/0',
    ],
    ['derived from itself', yamlWith(ROW_ID, '        derived_from: [t]\n'), '/plugins/p/tables/t/derived_from/0'],
    [
      'no columns',
      'version: 1\nplugins:\n  p:\n    tables:\n      t:\n        columns: []\n',
      '/plugins/p/tables/t/columns',
    ],
    ['wrong version', 'version: 2\nplugins: {}\n', '/version'],
    [
      'series over unknown table',
      'version: 1\nplugins:\n  p:\n    series:\n      s:\n        table: nope\n        columns: [{ name: n, agg: count }]\n',
      '/plugins/p/series/s/table',
    ],
    [
      'series aggregation unknown',
      `${yamlWith(`${ROW_ID}          - { name: time, type: datetime }\n`)}    series:\n      s:\n        table: t\n        columns: [{ name: row_id, agg: median }]\n`,
      '/plugins/p/series/s/columns/0/agg',
    ],
    [
      'series wmean without a weight',
      `${yamlWith(`${ROW_ID}          - { name: time, type: datetime }\n`)}    series:\n      s:\n        table: t\n        columns: [{ name: row_id, agg: wmean }]\n`,
      '/plugins/p/series/s/columns/0',
    ],
    [
      'series partition on an unknown column',
      `${yamlWith(`${ROW_ID}          - { name: time, type: datetime }\n`)}    series:\n      s:\n        table: t\n        partition: [zz]\n        columns: [{ name: n, agg: count }]\n`,
      '/plugins/p/series/s/partition/0',
    ],
    [
      'series without a time column',
      `${yamlWith(ROW_ID)}    series:\n      s:\n        table: t\n        columns: [{ name: n, agg: count }]\n`,
      '/plugins/p/series/s/time_column',
    ],
    [
      'rows that settle after later blocks without a height column',
      yamlWith(ROW_ID, '        settles_after: 1\n'),
      '/plugins/p/tables/t/settles_after',
    ],
    [
      'a mutable table whose rows settle after later blocks',
      yamlWith(
        `${ROW_ID}          - { name: height, type: uint64 }\n`,
        '        kind: mutable\n        height_column: height\n        settles_after: 1\n',
      ),
      '/plugins/p/tables/t/settles_after',
    ],
    [
      'a negative settles_after',
      yamlWith(
        `${ROW_ID}          - { name: height, type: uint64 }\n`,
        '        height_column: height\n        settles_after: -1\n',
      ),
      '/plugins/p/tables/t/settles_after',
    ],
    [
      'a narrower type for a column its narrow tables do not keep',
      followsYaml(
        FOLLOWS,
        "        height_column: h\n        parts: { by: c, tables: { '1': t1 }, columns: [h], types: { zz: uint32 } }\n",
      ),
      '/plugins/p/tables/t/parts/types/zz',
    ],
    [
      'a column following the height of an unknown table',
      followsYaml('{ table: zz, column: c }'),
      '/plugins/p/tables/t/columns/2/follows_height/table',
    ],
    [
      'a column following an unindexed column',
      followsYaml(FOLLOWS, undefined, ''),
      '/plugins/p/tables/t/columns/2/follows_height/column',
    ],
    [
      'a column following a column of another type',
      followsYaml(FOLLOWS).replace('{ name: c, type: uint64 }', '{ name: c, type: int64 }'),
      '/plugins/p/tables/t/columns/2/follows_height/column',
    ],
    [
      'a column following the height in a mutable table',
      followsYaml(FOLLOWS, '        kind: mutable\n        height_column: h\n'),
      '/plugins/p/tables/t/columns/2/follows_height',
    ],
    [
      'a column following the height in a table without one',
      followsYaml(FOLLOWS, ''),
      '/plugins/p/tables/t/columns/2/follows_height',
    ],
    [
      'a route over an unknown table',
      routeYaml(OBJECT).replace('table: t,', 'table: zz,'),
      '/plugins/p/routes/0/table',
    ],
    [
      'a route of an unknown kind',
      routeYaml('kind: page, params: { id: { column: row_id } }'),
      '/plugins/p/routes/0/kind',
    ],
    [
      'a route field naming an unknown column',
      routeYaml(`${OBJECT}, fields: [row_id, b]`),
      '/plugins/p/routes/0/fields/1',
    ],
    [
      'a route field renamed from an unknown column',
      routeYaml(`${OBJECT}, fields: [{ name: b, column: zz }]`),
      '/plugins/p/routes/0/fields/0',
    ],
    [
      'a duplicate route field',
      routeYaml(`${OBJECT}, fields: [a, { name: a, column: row_id }]`),
      '/plugins/p/routes/0/fields/1',
    ],
    [
      'a route parameter on an unknown column',
      routeYaml('kind: object, params: { id: { column: zz } }, not_found: no x'),
      '/plugins/p/routes/0/params/id/column',
    ],
    ['a path parameter not declared', routeYaml('kind: object, not_found: no x'), '/plugins/p/routes/0/params'],
    [
      'a declared parameter not in the path',
      routeYaml('kind: object, params: { id: { column: row_id }, b: { column: a } }, not_found: no x'),
      '/plugins/p/routes/0/params',
    ],
    [
      'an object route without not_found',
      routeYaml('kind: object, params: { id: { column: row_id } }'),
      '/plugins/p/routes/0',
    ],
    ['an object route with a list order', routeYaml(`${OBJECT}, order: desc`), '/plugins/p/routes/0/order'],
    [
      'a list route with a final height',
      routeYaml('kind: list, params: { id: { column: row_id } }, final_height: row_id'),
      '/plugins/p/routes/0/final_height',
    ],
    [
      'a route requirement on an unknown column',
      routeYaml(
        'kind: list, params: { id: { column: a } }, requires: { table: t, params: { id: zz }, not_found: no t }',
      ),
      '/plugins/p/routes/0/requires/params/id',
    ],
    [
      'a route requirement with a bad value',
      routeYaml(
        'kind: list, params: { id: { column: a } }, requires: { table: t, params: { id: a }, where: { row_id: x }, not_found: no t }',
      ),
      '/plugins/p/routes/0/requires/where/row_id',
    ],
    ['a route with an unknown property', routeYaml(`${OBJECT}, colour: red`), '/plugins/p/routes/0'],
    [
      'a record-shaped route that lists fields',
      routeYaml(`${OBJECT}, record: x, fields: [a]`),
      '/plugins/p/routes/0/fields',
    ],
    [
      'a route switch the explorer does not have',
      routeYaml(`${OBJECT}, record: x, switches: [prim, colour]`),
      '/plugins/p/routes/0/switches/1',
    ],
    [
      'a route switch named twice',
      routeYaml(`${OBJECT}, record: x, switches: [prim, prim]`),
      '/plugins/p/routes/0/switches',
    ],
    [
      'route switches without a record shaper',
      routeYaml(`${OBJECT}, switches: [meta]`),
      '/plugins/p/routes/0/switches',
    ],
    [
      'a list profile of an unknown name',
      routeYaml('kind: list, params: { id: { column: row_id } }, profile: huge'),
      '/plugins/p/routes/0/profile',
    ],
    ['a list profile on an object route', routeYaml(`${OBJECT}, profile: object`), '/plugins/p/routes/0/profile'],
    [
      'a filter alias of an unknown column',
      routeYaml('kind: list, params: { id: { column: row_id } }, aliases: { b: zz }'),
      '/plugins/p/routes/0/aliases/b',
    ],
    [
      'a filter alias over an unknown column',
      routeYaml('kind: list, params: { id: { column: row_id } }, aliases: { b: [a, zz] }'),
      '/plugins/p/routes/0/aliases/b/1',
    ],
    [
      'a filter alias named like a column',
      routeYaml('kind: list, params: { id: { column: row_id } }, aliases: { a: row_id }'),
      '/plugins/p/routes/0/aliases/a',
    ],
    [
      'open rows only by a column that is no bool',
      routeYaml('kind: list, params: { id: { column: row_id } }, open_only: a'),
      '/plugins/p/routes/0/open_only',
    ],
    [
      'a path parameter over any of an unknown column',
      routeYaml('kind: list, params: { id: { column: [a, zz] } }'),
      '/plugins/p/routes/0/params/id/column/1',
    ],
  ];
  for (const [what, text, path] of violations) {
    it(`rejects ${what} and names ${path}`, function () {
      const err = rejection(text);
      expect(err.path).to.equal(path);
      expect(err.message).to.contain(path);
    });
  }

  it("takes a column following another table's, and knows where to find its heights", function () {
    const follows = parseCatalog(followsYaml(FOLLOWS)).table('t')!.column('c')!.followsHeight;
    expect(follows).to.deep.include({ storage: 'b', column: 'c', height: 'h' });
  });

  it('rejects YAML syntax errors and duplicate keys with a line number', function () {
    expect(rejection('version: 1\nplugins: {\n').message).to.match(/line \d+/);
    expect(rejection('version: 1\nversion: 1\nplugins: {}\n').message).to.match(/line 2/);
  });

  it('the same text parsed again gives a catalog of its own, and a bad text fails every time', function () {
    const text = yamlWith(`${ROW_ID}          - { name: note, type: string, nullable: true }\n`);
    const [a, b] = [parseCatalog(text), parseCatalog(text)];
    const [ta, tb] = [[...a.tables.values()][0], [...b.tables.values()][0]];
    expect(ta.columns.map((c) => c.name)).to.deep.equal(tb.columns.map((c) => c.name));
    // Nothing one instance does to its catalog's declarations reaches another's.
    expect(ta).not.to.equal(tb);
    expect(ta.columns[1]).not.to.equal(tb.columns[1]);
    (ta.columns[1] as { name: string }).name = 'changed';
    expect(tb.columns[1].name).to.equal('note');
    expect(parseCatalog(text).tables.values().next().value!.columns[1].name).to.equal('note');
    const bad = 'version: 1\nversion: 1\nplugins: {}\n';
    expect(rejection(bad).message).to.match(/line 2/);
    expect(rejection(bad).message).to.match(/line 2/);
  });

  it('rejects the same table code declared by two plugins', function () {
    const t = '      x:\n        columns: [{ name: row_id, type: uint64 }]\n';
    expect(rejection(`version: 1\nplugins:\n  a:\n    tables:\n${t}  b:\n    tables:\n${t}`).reason).to.match(
      /also declared by plugin 'a'/,
    );
  });

  it('decorators produce the same model as YAML', function () {
    @table('pool', { description: 'pools', kind: 'mutable', height_column: 'height', indexes: [['contract']] })
    class PoolRow {
      @column({ type: 'uint64' }) row_id!: string;
      @column({ type: 'address', description: 'pool contract' }) contract!: string;
      @column({ type: 'int64' }) height!: number;
      @column({ type: 'fixed(18)', nullable: true, default: false }) price!: string;
    }
    const fromCode = catalogFromClasses('dex', [PoolRow]).table('pool')!;
    const fromYaml = parseCatalog(`version: 1
plugins:
  dex:
    tables:
      pool:
        description: pools
        kind: mutable
        height_column: height
        indexes: [[contract]]
        columns:
          - { name: row_id, type: uint64 }
          - { name: contract, type: address, description: pool contract }
          - { name: height, type: int64 }
          - { name: price, type: "fixed(18)", nullable: true, default: false }
`).table('pool')!;
    const shape = (t: typeof fromCode): unknown => ({
      ...t,
      column: undefined,
      columns: t.columns.map((c) => ({ ...c, type: c.type.name })),
    });
    expect(shape(fromCode)).to.deep.equal(shape(fromYaml));
  });

  it('decorated tables are validated like YAML', function () {
    @table('bad')
    class BadRow {
      @column({ type: 'money' }) amount!: string;
    }
    expect(() => catalogFromClasses('x', [BadRow])).to.throw(CatalogError, /row_id/);
  });

  it('rejects the same route path declared twice', function () {
    const route = `{ path: /x/:id, scope: GetX, table: t, ${OBJECT} }`;
    const err = rejection(`${yamlWith(ROW_ID)}    routes:\n      - ${route}\n      - ${route}\n`);
    expect(err.path).to.equal('/plugins/p/routes/1/path');
  });

  it('forPlugins refuses a table derived from a table of a plugin left out', function () {
    const catalog = parseCatalog(`version: 1
plugins:
  src:
    tables:
      updates:
        columns: [{ name: row_id, type: uint64 }]
  derived:
    tables:
      values:
        kind: mutable
        derived_from: [updates]
        columns: [{ name: row_id, type: uint64 }]
`);
    expect(() => catalog.forPlugins(new Set(['derived']))).to.throw(
      /table 'values' of plugin 'derived' is derived from 'updates' of plugin 'src'.*enable 'src' too/,
    );
    expect([...catalog.forPlugins(new Set(['derived', 'src'])).tables.keys()]).to.deep.equal(['updates', 'values']);
    expect([...catalog.forPlugins(new Set(['src'])).tables.keys()]).to.deep.equal(['updates']);
  });

  it("every declared list reads its path parameter by an index led by the column and the row id (a busy value's page, not all its rows)", function () {
    const catalog = loadCatalogFile(DEFAULTS.catalogFile);
    const lists = [...catalog.routes.values()].filter((r) => r.kind === 'list' && r.params.length > 0);
    expect(lists.map((r) => r.path)).to.include.members([
      '/v1/dex/:pool/events',
      '/v1/wallets/:addr/dex_trades',
      '/v1/wallets/:addr/lend_events',
      '/explorer/bakers/:hash/votes',
      '/v1/dex/:pool/positions',
      '/v1/wallets/:addr/farm_positions',
    ]);
    for (const r of lists)
      for (const p of r.params)
        for (const c of p.columns) expect(leadsIndex(r.table, c), `${r.path}: ${c.name}`).to.equal(true);
  });

  it('forPlugins keeps only the tables, series and routes of the given plugins', function () {
    const catalog = loadCatalogFile(DEFAULTS.catalogFile);
    const gov = catalog.forPlugins(new Set(['governance']));
    expect([...gov.tables.keys()].sort()).to.deep.equal(['ballot', 'election', 'proposal', 'vote', 'voter']);
    expect(gov.series.size).to.equal(0);
    expect([...gov.routes.keys()]).to.deep.equal(['/explorer/bakers/:hash/votes']);
    expect(Catalog.merge([gov, catalog.forPlugins(new Set(['bigmaps']))]).tables.size).to.equal(8);
  });
});
