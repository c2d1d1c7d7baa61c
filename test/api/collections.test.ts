import { expect } from 'chai';
import { RouteRegistry } from '../../framework/http/RouteRegistry';
import { PluginClass } from '../../framework/plugins/Plugin';
import { OBJECT_LIST_PROFILE } from '../../framework/query/ListProfile';
import { parseTableRequest, pathFilter } from '../../framework/query/TableRequest';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import { SAMPLE_CATALOG, SampleRow, sampleRows, tez, toWriterRow } from '../support/SampleTable';

/** A plugin that mounts the generic engine at paths of its choosing, as the DeFi plugins will. */
class ListsPlugin {
  static readonly manifest = { name: 'fixture' };
  setup() {
    return { routes: (r: RouteRegistry) => this.routes(r) };
  }
  private routes(r: RouteRegistry): void {
    r.collection('/lists/sample', 'ListSample', 'sample', OBJECT_LIST_PROFILE);
    r.collection('/lists/by-addr/:addr', 'ListSample', 'sample', OBJECT_LIST_PROFILE, {
      filters: (ctx, table) => [pathFilter(table, 'addr', ctx.params.addr)],
    });
  }
}

describe(`plugin collections on the generic engine (${BACKEND})`, function () {
  let t: TestInstance;
  let rows: SampleRow[];
  before(async function () {
    t = await startTestInstance({
      catalogYaml: SAMPLE_CATALOG,
      plugins: [ListsPlugin as unknown as PluginClass, manifestPlugin('other')],
      enabled: ['fixture'],
    });
    rows = sampleRows(300, 3);
    await t.insert('sample', rows.map(toWriterRow));
  });
  after(async () => t?.close());

  it('rows are objects with RFC3339 times, true/false and tez amounts; default limit 100', async function () {
    const body = (await (await t.get('/lists/sample')).json()) as Array<Record<string, unknown>>;
    expect(body).to.have.length(100);
    const r = rows[0];
    expect(body[0]).to.deep.equal({
      row_id: 1,
      i64: Number(r.i64),
      u64: Number(r.u64),
      f64: r.f64,
      amount: Number(tez(r.amount)),
      time: new Date(r.time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      flag: r.flag,
      block: r.block,
      addr: r.addr,
      kind: r.kind,
      label: r.label,
      blob: r.blob,
      big: r.big.toString(),
      price: r.price,
      doc: r.doc,
    });
  });

  it('limit 0 means no rows; offset and cursor page without overlap; filters work as in /tables', async function () {
    expect(await (await t.get('/lists/sample?limit=0')).json()).to.deep.equal([]);
    const ids = async (q: string): Promise<number[]> =>
      ((await (await t.get(`/lists/sample?columns=row_id&${q}`)).json()) as Array<{ row_id: number }>).map(
        (o) => o.row_id,
      );
    expect(await ids('limit=5&offset=10')).to.deep.equal([11, 12, 13, 14, 15]);
    expect(await ids('limit=3&order=desc&offset=2')).to.deep.equal([298, 297, 296]);
    expect(await ids('limit=3&cursor=7&offset=1')).to.deep.equal([9, 10, 11]);
    expect(await ids('limit=1000&kind=beta')).to.deep.equal(rows.filter((r) => r.kind === 'beta').map((r) => r.row_id));
  });

  it('path filters narrow the collection; a malformed path value is 400/1301', async function () {
    const addr = rows.find((r) => r.addr !== null)!.addr!;
    const body = (await (await t.get(`/lists/by-addr/${addr}?columns=row_id&limit=1000`)).json()) as Array<{
      row_id: number;
    }>;
    expect(body.map((o) => o.row_id)).to.deep.equal(rows.filter((r) => r.addr === addr).map((r) => r.row_id));
    const bad = await t.get('/lists/by-addr/tz1nope');
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { errors: Array<{ code: number }> }).errors[0].code).to.equal(1301);
  });

  it('limits clamp at 10000 and bad offsets are rejected', async function () {
    const table = t.app.catalog.table('sample')!;
    expect(parseTableRequest(table, { limit: '20000' }, OBJECT_LIST_PROFILE).limit).to.equal(10000);
    for (const [path, status] of [
      ['/lists/sample?offset=-1', 400],
      ['/lists/sample?offset=x', 400],
    ] as const) {
      expect((await t.get(path)).status).to.equal(status);
    }
  });
});
