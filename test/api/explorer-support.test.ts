import { expect } from 'chai';
import { ApiError } from '../../framework/errors/ApiError';
import { ChainState } from '../../framework/indexer/ChainState';
import { FINAL_DEPTH } from '../../framework/indexer/ChainState';
import { parseAddress, parseBlockId, parseOperationId } from '../../framework/http/ResourceIds';
import { RouteRegistry } from '../../framework/http/RouteRegistry';
import { PluginClass } from '../../framework/plugins/Plugin';
import { EXPLORER_LIST_PROFILE } from '../../framework/query/ListProfile';
import { expectApiError } from '../support/apiErrors';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import { SAMPLE_CATALOG, sampleRows, toWriterRow } from '../support/SampleTable';

/** Explorer-style routes built only from the framework's shared pieces. */
class ThingsPlugin {
  static readonly manifest = { name: 'fixture' };
  setup() {
    return { routes: (r: RouteRegistry) => this.routes(r) };
  }
  private routes(r: RouteRegistry): void {
    r.object('/explorer/thing/:id', 'ReadThing', (ctx) => {
      const id = parseBlockId(ctx.params.id);
      if (id.kind === 'hash') throw ApiError.notFound('no such thing');
      const height = id.kind === 'head' ? 1000 : id.height;
      return { body: { height, big: 2n ** 70n, small: 5n, padding: 'x'.repeat(4000) }, height };
    });
    r.collection('/explorer/things', 'ListThings', 'sample', EXPLORER_LIST_PROFILE);
  }
}

describe(`explorer building blocks (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({
      catalogYaml: SAMPLE_CATALOG,
      plugins: [ThingsPlugin as unknown as PluginClass, manifestPlugin('other')],
      enabled: ['fixture'],
    });
    await t.insert('sample', sampleRows(700).map(toWriterRow));
    t.app.container.resolve(ChainState).update({ height: 1000, headTime: Date.now(), blockInterval: 8 });
  });
  after(async () => t?.close());

  it('objects carry an ETag; a matching If-None-Match answers 304 without a body', async function () {
    const a = await t.get('/explorer/thing/10');
    expect(a.status).to.equal(200);
    const text = await a.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).to.include({ height: 10, small: 5 });
    // Integers beyond 2^53 are exact JSON numbers (Go clients decode numbers, not strings).
    expect(text).to.contain('"big":1180591620717411303424');
    const etag = a.headers.get('etag')!;
    expect(etag).to.match(/^W\/".+"$/);
    const again = await t.get('/explorer/thing/10', { 'If-None-Match': etag });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    expect((await t.get('/explorer/thing/11', { 'If-None-Match': etag })).status).to.equal(200);
  });

  it('deep-final objects are cached for a day, objects near the head until the next block', async function () {
    const deep = await t.get(`/explorer/thing/${1000 - FINAL_DEPTH}`);
    expect(deep.headers.get('cache-control')).to.equal('public, max-age=86400');
    const head = await t.get('/explorer/thing/head');
    const maxAge = Number(/max-age=(\d+)/.exec(head.headers.get('cache-control')!)![1]);
    expect(maxAge).to.be.within(1, 8);
  });

  it('ids: malformed → 400/1301, unknown → 404/1305, .json accepted, .csv → 400/1001', async function () {
    const cases: Array<[string, number, number]> = [
      ['/explorer/thing/BLnope', 400, 1301],
      ['/explorer/thing/-1', 400, 1301],
      ['/explorer/thing/99999999999', 400, 1301],
      ['/explorer/thing/BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2', 404, 1305],
      ['/explorer/thing/10.csv', 400, 1001],
    ];
    for (const [path, status, code] of cases) await expectApiError(await t.get(path), status, code, path);
    expect((await t.get('/explorer/thing/10.json')).status).to.equal(200);
  });

  it('explorer lists: 20 by default, at most 500, offset and cursor', async function () {
    const ids = async (q: string): Promise<number[]> =>
      ((await (await t.get(`/explorer/things?columns=row_id${q}`)).json()) as Array<{ row_id: number }>).map(
        (o) => o.row_id,
      );
    expect(await ids('')).to.have.length(20);
    expect(await ids('&limit=600')).to.have.length(500);
    expect(await ids('&limit=3&offset=20')).to.deep.equal([21, 22, 23]);
    expect(await ids('&limit=3&cursor=30&order=desc')).to.deep.equal([29, 28, 27]);
  });

  it('answers are compressed when the client accepts it', async function () {
    const res = await t.get('/explorer/thing/10', { 'Accept-Encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).to.equal('gzip');
    expect(((await res.json()) as { height: number }).height).to.equal(10);
  });

  it('id parsers', function () {
    expect(parseBlockId('head')).to.deep.equal({ kind: 'head' });
    expect(parseBlockId('42')).to.deep.equal({ kind: 'height', height: 42 });
    expect(parseOperationId('123')).to.deep.equal({ kind: 'id', id: 123n });
    expect(parseOperationId('opQ6YSNmjZi2XkM7GTeLXTJyzYZzdKCfUo9qcqPaXXcC82p77Qx').kind).to.equal('hash');
    expect(() => parseOperationId('oXX')).to.throw(ApiError, /invalid operation hash/);
    expect(() => parseAddress('tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjc')).to.throw(ApiError, /invalid address/);
  });
});
