import * as http from 'node:http';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { isFilterOnly, TableDef } from '../../framework/catalog/CatalogModel';
import { ChainState } from '../../framework/indexer/ChainState';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { expectApiError } from '../support/apiErrors';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import {
  COLUMNS,
  oracle,
  parseCsv,
  SAMPLE_CATALOG,
  SampleRow,
  sampleRows,
  tez,
  toWriterRow,
} from '../support/SampleTable';

const N = 1200;
const plugins = [manifestPlugin('fixture'), manifestPlugin('other')];

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`invalid JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}

async function ids(t: TestInstance, query: string): Promise<number[]> {
  const res = await t.get(`/tables/sample?columns=row_id&limit=50000&${query}`);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).to.equal(200);
  return (body as number[][]).map((r) => r[0]);
}

describe(`tables API (${BACKEND})`, function () {
  let t: TestInstance;
  let rows: SampleRow[];

  before(async function () {
    t = await startTestInstance({ catalogYaml: SAMPLE_CATALOG, plugins, enabled: ['fixture'] });
    rows = sampleRows(N);
    await t.insert('sample', rows.map(toWriterRow));
  });
  after(async () => t?.close());

  describe('filters: every operator on every column type equals the JS oracle', function () {
    for (const [column, spec] of Object.entries(COLUMNS)) {
      for (const op of spec.ops) {
        it(`${column}.${op}`, async function () {
          const present = rows.map((r) => (r as unknown as Record<string, unknown>)[column]).filter((v) => v !== null);
          const pick = (k: number): unknown => present[(k * 7919) % present.length];
          let args: unknown[];
          if (op === 'in' || op === 'nin') args = [pick(3), pick(11), pick(17)];
          else if (op === 'rg') args = [pick(5), pick(13)].sort(spec.cmp);
          else args = [pick(9)];
          const expected = oracle(rows, column, op, args);
          const got = await ids(t, `${column}.${op}=${args.map((a) => encodeURIComponent(spec.arg(a))).join(',')}`);
          expect(got).to.deep.equal(expected);
          // A filter that keeps everything or nothing would not tell operators apart.
          if (op !== 'eq' && op !== 'in' && column !== 'flag' && column !== 'kind')
            expect(expected.length).to.be.within(1, N - 1);
        });
      }
    }

    it('plain `col=v` means eq, and repeated keys AND together', async function () {
      const a = rows[10];
      expect(await ids(t, `kind=${a.kind}`)).to.deep.equal(oracle(rows, 'kind', 'eq', [a.kind]));
      const both = await ids(t, `i64.gte=-100&i64.lte=100&kind=${a.kind}`);
      expect(both).to.deep.equal(
        rows.filter((r) => r.i64 >= -100n && r.i64 <= 100n && r.kind === a.kind).map((r) => r.row_id),
      );
      const repeated = await ids(t, 'u64.gt=1000&u64.gt=500000');
      expect(repeated).to.deep.equal(rows.filter((r) => r.u64 > 500000n).map((r) => r.row_id));
    });

    it('re matches strings with Postgres regular expressions', async function () {
      const got = await ids(t, `label.re=${encodeURIComponent('^with[ ,]')}`);
      expect(got).to.deep.equal(rows.filter((r) => /^with[ ,]/.test(r.label)).map((r) => r.row_id));
      expect(got.length).to.be.greaterThan(0);
    });

    it('time filters accept unix seconds, milliseconds, dates and relative times', async function () {
      const t0 = rows[600].time;
      const secs = Math.floor(t0 / 1000);
      expect(await ids(t, `time.gte=${secs}`)).to.deep.equal(
        rows.filter((r) => r.time >= secs * 1000).map((r) => r.row_id),
      );
      expect(await ids(t, `time.lt=${t0}`)).to.deep.equal(rows.filter((r) => r.time < t0).map((r) => r.row_id));
      expect(await ids(t, 'time.lt=2024-01-02')).to.deep.equal(
        rows.filter((r) => r.time < Date.UTC(2024, 0, 2)).map((r) => r.row_id),
      );
      expect(await ids(t, 'time.gt=now')).to.deep.equal([]);
      expect(await ids(t, 'time.lt=now-1d')).to.have.length(N);
    });

    // Issue #51: `null` named SQL NULL nowhere (`doc=null` matched nothing, `doc.ne=null` everything) and
    // an empty address was a 400; they mean "no value" as in the original (an empty address: account id 0).
    it('null on a nullable column and an empty address mean no value: eq/in match it, ne/nin not', async function () {
      const a = rows.find((r) => r.addr !== null)!.addr!;
      const docNull = rows.filter((r) => r.doc === null).map((r) => r.row_id);
      const addrNull = rows.filter((r) => r.addr === null).map((r) => r.row_id);
      expect(docNull.length).to.be.within(1, N - 1);
      expect(addrNull.length).to.be.within(1, N - 1);
      const others = (ids: number[]) => rows.map((r) => r.row_id).filter((id) => !ids.includes(id));
      expect(await ids(t, 'doc=null')).to.deep.equal(docNull);
      expect(await ids(t, 'doc.ne=null')).to.deep.equal(others(docNull));
      for (const empty of ['null', '']) {
        expect(await ids(t, `addr.eq=${empty}`), empty).to.deep.equal(addrNull);
        expect(await ids(t, `addr.ne=${empty}`), empty).to.deep.equal(others(addrNull));
      }
      const nullOrA = rows.filter((r) => r.addr === null || r.addr === a).map((r) => r.row_id);
      expect(await ids(t, `addr.in=null,${a}`)).to.deep.equal(nullOrA);
      expect(await ids(t, `addr.in=,${a}`)).to.deep.equal(nullOrA);
      expect(await ids(t, `addr.nin=${a},null`)).to.deep.equal(others(nullOrA));
      // Not nullable: `null` is a value of the column's type (a string), or not one (400).
      expect(await ids(t, 'label=null')).to.deep.equal(rows.filter((r) => r.label === 'null').map((r) => r.row_id));
      await expectApiError(await t.get('/tables/sample?i64=null'), 400, 1007);
      // Only equality names NULL: no order has it.
      await expectApiError(await t.get('/tables/sample?addr.gt=null'), 400, 1007);
    });

    it('money filters take tez', async function () {
      expect(await ids(t, 'amount.gte=1.5')).to.deep.equal(
        rows.filter((r) => r.amount >= 1_500_000n).map((r) => r.row_id),
      );
    });
  });

  describe('encoding', function () {
    it('JSON: array of arrays in the requested column order, each type encoded as specified', async function () {
      const res = await t.get('/tables/sample.json?limit=50000');
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await json(res)) as unknown[][];
      expect(body).to.have.length(N);
      rows.forEach((r, i) => {
        expect(body[i]).to.deep.equal([
          r.row_id,
          Number(r.i64),
          Number(r.u64),
          r.f64,
          Number(tez(r.amount)),
          r.time,
          r.flag ? 1 : 0,
          r.block,
          r.addr,
          r.kind,
          r.label,
          r.blob,
          r.big.toString(),
          r.price,
          r.doc,
        ]);
      });
    });

    it('JSON: money keeps exactly 6 decimals and int64 keeps every digit', async function () {
      const text = await (await t.get('/tables/sample?columns=amount,big&limit=50')).text();
      const cells = [...text.matchAll(/\[(-?\d+\.\d+),"(-?\d+)"\]/g)];
      expect(cells).to.have.length(50);
      cells.forEach((m, i) => {
        expect(m[1]).to.equal(tez(rows[i].amount));
        expect(m[2]).to.equal(rows[i].big.toString());
      });
    });

    it('JSON: columns= selects and orders; non-default columns only on request', async function () {
      const body = (await json(await t.get('/tables/sample?columns=label,row_id,secret&limit=3'))) as unknown[][];
      expect(body).to.deep.equal(rows.slice(0, 3).map((r) => [r.label, r.row_id, r.secret]));
      const dflt = (await json(await t.get('/tables/sample?limit=1'))) as unknown[][];
      expect(dflt[0]).to.have.length(15);
    });

    it('CSV: header plus RFC 4180 rows; quotes, commas and newlines survive a round trip', async function () {
      const res = await t.get('/tables/sample.csv?limit=50000');
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      const table = parseCsv(await res.text());
      expect(table[0]).to.deep.equal([
        'row_id',
        'i64',
        'u64',
        'f64',
        'amount',
        'time',
        'flag',
        'block',
        'addr',
        'kind',
        'label',
        'blob',
        'big',
        'price',
        'doc',
      ]);
      expect(table).to.have.length(N + 1);
      rows.forEach((r, i) => {
        expect(table[i + 1]).to.deep.equal([
          String(r.row_id),
          r.i64.toString(),
          r.u64.toString(),
          String(r.f64),
          tez(r.amount),
          new Date(r.time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          String(r.flag),
          r.block,
          r.addr ?? '',
          r.kind,
          r.label,
          r.blob,
          r.big.toString(),
          r.price,
          r.doc === null ? '' : JSON.stringify(r.doc).replace(/,/g, ', ').replace(/":/g, '": '),
        ]);
      });
      expect(rows.some((r) => /[",\n]/.test(r.label))).to.equal(true);
    });
  });

  describe('paging', function () {
    for (const order of ['asc', 'desc'] as const) {
      it(`cursor paging (${order}) returns every row exactly once, in order`, async function () {
        const seen: number[] = [];
        let cursor = '';
        for (let page = 0; page < 500; page++) {
          const body = (await json(
            await t.get(`/tables/sample?columns=row_id,kind&order=${order}&limit=97&kind.ne=gamma${cursor}`),
          )) as number[][];
          if (body.length === 0) break;
          seen.push(...body.map((r) => r[0]));
          cursor = `&cursor=${body[body.length - 1][0]}`;
        }
        const expected = rows.filter((r) => r.kind !== 'gamma').map((r) => r.row_id);
        expect(seen).to.deep.equal(order === 'asc' ? expected : [...expected].reverse());
      });
    }

    it('the X-Streaming-Cursor trailer names the last row', async function () {
      // fetch does not expose trailers: read them with node:http.
      const { body, trailers } = await new Promise<{ body: string; trailers: NodeJS.Dict<string> }>(
        (resolve, reject) => {
          http
            .get(`${t.url}/tables/sample?columns=row_id&limit=5&cursor=10`, (res) => {
              let text = '';
              res.on('data', (c) => (text += c));
              res.on('end', () => resolve({ body: text, trailers: res.trailers }));
            })
            .on('error', reject);
        },
      );
      expect((JSON.parse(body) as number[][]).map((r) => r[0])).to.deep.equal([11, 12, 13, 14, 15]);
      expect(trailers['x-streaming-cursor']).to.equal('15');
      expect(trailers['x-streaming-count']).to.equal('5');
      expect(trailers).not.to.have.property('x-streaming-error');
    });

    it('limits: default 500, 0 means default, explicit limits honoured, huge ones clamped', async function () {
      expect(await json(await t.get('/tables/sample?columns=row_id'))).to.have.length(500);
      expect(await json(await t.get('/tables/sample?columns=row_id&limit=0'))).to.have.length(500);
      expect(await json(await t.get('/tables/sample?columns=row_id&limit=7'))).to.have.length(7);
      expect(await json(await t.get('/tables/sample?columns=row_id&limit=99999999999'))).to.have.length(N);
    });

    it('streams answers longer than one engine chunk without losing or repeating rows', async function () {
      const engineChunk = 5000;
      expect(N).to.be.lessThan(engineChunk);
      const engine = t.app.container.resolve(TableQueryEngine);
      engine.chunkSize = 64;
      try {
        expect(await ids(t, 'flag=1')).to.deep.equal(rows.filter((r) => r.flag).map((r) => r.row_id));
      } finally {
        engine.chunkSize = engineChunk;
      }
    });
  });

  describe('errors', function () {
    const hostile: Array<[string, number, number]> = [
      ['/tables/sample?columns=row_id;drop%20table%20sample', 400, 1007],
      ['/tables/sample?columns=row_id,%22label%22', 400, 1007],
      ['/tables/sample?columns=row_id,row_id', 400, 1007],
      ['/tables/sample?i64=1%20or%201=1', 400, 1007],
      ['/tables/sample?i64=99999999999999999999', 400, 1007],
      ['/tables/sample?u64=-5', 400, 1007],
      ['/tables/sample?label.re=(', 400, 1007],
      ['/tables/sample?label.re=a%7B99999%7D', 400, 1007],
      ['/tables/sample?flag.re=1', 400, 1007],
      ['/tables/sample?kind.gt=alpha', 400, 1007],
      ['/tables/sample?kind=delta', 400, 1007],
      ['/tables/sample?addr=tz1invalid', 400, 1007],
      ['/tables/sample?addr=KT1%27%3B--', 400, 1007],
      ['/tables/sample?block=BLxyz', 400, 1007],
      ['/tables/sample?time=noon-ish', 400, 1007],
      ['/tables/sample?time=2024-02-31', 400, 1007],
      ['/tables/sample?amount=1.1234567', 400, 1007],
      ['/tables/sample?f64=NaN', 400, 1007],
      ['/tables/sample?blob=zz', 400, 1007],
      ['/tables/sample?big=1.5', 400, 1007],
      ['/tables/sample?price=1e5', 400, 1007],
      ['/tables/sample?doc=%7Bbad', 400, 1007],
      ['/tables/sample?i64.rg=1', 400, 1007],
      ['/tables/sample?i64.rg=1,2,3', 400, 1007],
      ['/tables/sample?i64.xx=1', 400, 1007],
      ['/tables/sample?nope=1', 400, 1007],
      ['/tables/sample?nope.eq=1', 400, 1007],
      ['/tables/sample?limit=-1', 400, 1005],
      ['/tables/sample?limit=1e9', 400, 1005],
      ['/tables/sample?limit=10&limit=20', 400, 1005],
      ['/tables/sample?order=random()', 400, 1005],
      ['/tables/sample?cursor=-1', 400, 1007],
      ['/tables/sample?cursor=abc', 400, 1007],
      ['/tables/sample?cursor=99999999999999999999', 400, 1007],
      ['/tables/sample?cursor=1;select%201', 400, 1007],
      ['/tables/sample?offset=10', 400, 1007],
      ['/tables/sample.xml', 400, 1001],
      ['/tables/sample.', 400, 1001],
      ['/tables/hidden', 404, 1305],
      ['/tables/nope.csv', 404, 1305],
      ['/tables/%00', 404, 1305],
      ['/tables/..%2F..%2Fetc%2Fpasswd', 400, 1001],
      ['/tables/..%2F..%2Fetc%2Fpasswd.json', 404, 1305],
      ['/tables', 404, 1000],
      ['/nothing/here', 404, 1000],
    ];
    for (const [path, status, code] of hostile) {
      it(`${decodeURIComponent(path)} → ${status}/${code}`, async function () {
        await expectApiError(await t.get(path), status, code);
      });
    }

    it('a SQL fragment as a string value is just a value, and the table survives', async function () {
      expect(await ids(t, `label=${encodeURIComponent("x'; drop table fixture.sample; --")}`)).to.deep.equal([]);
      expect(await ids(t, 'kind.in=alpha,beta,gamma')).to.have.length(N);
    });

    it('non-GET methods answer 405 in the JSON error format', async function () {
      const res = await fetch(`${t.url}/tables/sample`, { method: 'POST' });
      expect(res.status).to.equal(405);
      expect(((await json(res)) as { errors: unknown[] }).errors).to.have.length(1);
    });
  });

  describe('headers', function () {
    it('echoes a sane X-Request-Id, replaces an unsafe one, and reports X-Runtime', async function () {
      const a = await t.get('/tables/sample?limit=1', { 'X-Request-Id': 'client-42' });
      expect(a.headers.get('x-request-id')).to.equal('client-42');
      const b = await t.get('/tables/sample?limit=1', { 'X-Request-Id': 'bad id\twith spaces' });
      expect(b.headers.get('x-request-id')).to.match(/^TZ-[0-9a-f]{40}$/);
      expect(a.headers.get('x-runtime')).to.match(/^\d+\.\d{6}$/);
    });

    it('gives every request without an id of its own a different one', async function () {
      const ids = await Promise.all(
        Array.from({ length: 20 }, async () => (await t.get('/tables/sample?limit=1')).headers.get('x-request-id')),
      );
      for (const id of ids) expect(id).to.match(/^TZ-[0-9a-f]{40}$/);
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it('reports the chain height and network once known', async function () {
      t.app.container.resolve(ChainState).update({ height: 123, networkId: 'NetXdQprcVkpaWU' });
      const res = await t.get('/tables/sample?limit=1');
      expect(res.headers.get('x-chain-height')).to.equal('123');
      expect(res.headers.get('x-network-id')).to.equal('NetXdQprcVkpaWU');
    });
  });
});

describe(`tables API: plugins decide which tables exist (${BACKEND})`, function () {
  it('a table of an enabled plugin is served, the same table 404s when its plugin is disabled', async function () {
    const both = await startTestInstance({ catalogYaml: SAMPLE_CATALOG, plugins, enabled: ['fixture', 'other'] });
    try {
      expect((await both.get('/tables/hidden')).status).to.equal(200);
    } finally {
      await both.close();
    }
    const one = await startTestInstance({ catalogYaml: SAMPLE_CATALOG, plugins, enabled: ['other'] });
    try {
      expect((await one.get('/tables/hidden')).status).to.equal(200);
      const res = await one.get('/tables/sample');
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { errors: Array<{ detail: string }> }).errors[0].detail).to.equal(
        "no such table 'sample'",
      );
    } finally {
      await one.close();
    }
  });
});

// Issue #51 on an indexed sandbox chain, every built-in plugin: the default column set and the
// null/empty filter semantics on the op table's own columns.
describe(`tables API on an indexed chain: default columns, null and empty filters (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;

  before(async function () {
    const chain = new SandboxChain({ seed: 'tables', profile: 'tiny' });
    chain.bakeTo(72);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain);
  });
  after(async () => t?.close());

  async function rows(query: string): Promise<unknown[][]> {
    const res = await t.get(query);
    const body = await json(res);
    expect(res.status, `${query}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(200);
    return body as unknown[][];
  }

  // Spec: "default: all defined columns". 29 columns were left out (op id and code_hash, income's counters…).
  // Filter-only names and aliases are not columns of their own.
  const defined = (table: TableDef) =>
    table.columns.filter((c) => !isFilterOnly(c) && c.aliasOf === undefined).map((c) => c.name);

  it('without columns=, every table answers every column it defines', async function () {
    const missing: string[] = [];
    let tables = 0;
    for (const table of t.app.catalog.tables.values()) {
      if ((await t.get(`/tables/${table.code}?limit=1`)).status === 404) continue;
      const header = (await (await t.get(`/tables/${table.code}.csv?limit=1`)).text()).split(/\r?\n/)[0].split(',');
      const want = defined(table);
      if (header.join() !== want.join())
        missing.push(`${table.code}: ${want.filter((c) => !header.includes(c)).join(',')}`);
      tables++;
    }
    expect(tables).to.be.greaterThan(20);
    expect(missing).to.deep.equal([]);
    const op = (await rows('/tables/op?limit=1'))[0];
    expect(op).to.have.length(defined(t.app.catalog.require('op')).length);
  });

  /** Row ids of the operations a filter selects. */
  const ops = async (filter: string) =>
    (await rows(`/tables/op?columns=row_id&${filter}&limit=50000`)).map((r) => r[0]);

  it('errors=null gives the operations without errors, errors.ne=null those with', async function () {
    const all = await rows('/tables/op?columns=row_id,errors&limit=50000');
    const failed = all.filter((r) => r[1] !== null).map((r) => r[0]);
    expect(failed.length, 'failed operations in the sandbox chain').to.be.within(1, all.length - 1);
    expect(await ops('errors=null')).to.deep.equal(all.filter((r) => r[1] === null).map((r) => r[0]));
    expect(await ops('errors.ne=null')).to.deep.equal(failed);
  });

  it('creator.ne= (empty: no account) gives the operations with a creator, creator= those without', async function () {
    const all = await rows('/tables/op?columns=row_id,creator&limit=50000');
    const created = all.filter((r) => r[1] !== null).map((r) => r[0]);
    expect(created.length, 'operations with a creator').to.be.within(1, all.length - 1);
    expect(await ops('creator.ne=')).to.deep.equal(created);
    expect(await ops('creator=')).to.deep.equal(all.filter((r) => r[1] === null).map((r) => r[0]));
    const one = all.find((r) => r[1] !== null)![1] as string;
    const either = all.filter((r) => r[1] === null || r[1] === one).map((r) => r[0]);
    expect(await ops(`creator.in=,${one}`)).to.deep.equal(either);
    expect(await ops(`creator.nin=${one},`)).to.deep.equal(all.map((r) => r[0]).filter((id) => !either.includes(id)));
  });
});
