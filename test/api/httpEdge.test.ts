import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../framework/config/InstanceConfig';
import { jsonBody, MAX_BODY_DEPTH } from '../../framework/http/JsonBody';
import type { RouteRegistry } from '../../framework/http/RouteRegistry';
import type { PluginClass } from '../../framework/plugins/Plugin';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

/**
 * The HTTP edge (framework/http, framework/openapi): HEAD, content codings, CORS, prototype names,
 * JSON write bodies, and write routes in /openapi.json.
 */
const CATALOG = `
version: 1
plugins:
  edge:
    tables:
      msg:
        columns:
          - { name: row_id, type: uint64 }
          - { name: label, type: string }
`;
const LABEL = 'a fairly long label that repeats, '.repeat(4);

/** A test plugin with one write route that echoes its JSON body. */
const EdgePlugin = class {
  static readonly manifest = { name: 'edge', dependsOn: [] };
  setup() {
    return {
      routes: (r: RouteRegistry) =>
        r.write(
          'post',
          '/test/echo/:name',
          'Echo',
          async (ctx) => {
            ctx.body = { name: ctx.params.name, body: await jsonBody(ctx, 10_000_000) };
          },
          {
            summary: 'echo',
            requestBody: { type: 'object' },
            apiKey: true,
            params: { table: 'msg', columns: { name: 'label' } },
          },
        ),
    };
  }
} as unknown as PluginClass;

async function jsonError(res: Response, status: number): Promise<string> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  const e = (JSON.parse(text) as { errors: Array<{ status: number; detail: string }> }).errors[0];
  expect(e.status).to.equal(status);
  return e.detail;
}

const nested = (depth: number): string => '{"a":'.repeat(depth - 1) + '[]' + '}'.repeat(depth - 1);

describe(`HTTP edge: HEAD, codings, CORS, prototype names, write bodies (${BACKEND})`, function () {
  let t: TestInstance;
  const JSON_TYPE = { 'content-type': 'application/json' };
  const post = (body: string | Uint8Array, headers: Record<string, string> = JSON_TYPE): Promise<Response> =>
    fetch(`${t.url}/test/echo/x`, { method: 'POST', headers, body });

  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [EdgePlugin] });
    await t.insert(
      'msg',
      Array.from({ length: 40 }, (_, i) => ({ row_id: i + 1, label: LABEL })),
    );
  });
  after(async () => t?.close());

  it('HEAD answers like GET without a body, on tables, CSV, documents and errors', async function () {
    const paths = ['/tables/msg', '/tables/msg.csv?label=x&filename=m.csv', '/openapi.json', '/docs'];
    paths.push('/explorer/status', '/tables/nope', '/tables/msg?nope=1');
    for (const path of paths) {
      const [get, head] = [await t.get(path), await fetch(t.url + path, { method: 'HEAD' })];
      await get.arrayBuffer();
      expect(head.status, path).to.equal(get.status);
      for (const h of ['content-type', 'content-disposition']) {
        expect(head.headers.get(h), `${path} ${h}`).to.equal(get.headers.get(h));
      }
      expect(await head.text(), path).to.equal('');
    }
  });

  it('a client refusing every coding gets the answer uncompressed (RFC 9110 12.5.3)', async function () {
    for (const refusal of ['identity;q=0, *;q=0', '*;q=0', 'gzip;q=0, identity;q=0', 'identity;q=0']) {
      const res = await t.get('/tables/msg', { 'accept-encoding': refusal });
      expect(res.status, refusal).to.equal(200);
      expect(res.headers.get('content-encoding'), refusal).to.equal(null);
      expect(((await res.json()) as unknown[]).length, refusal).to.equal(40);
    }
    const gz = await t.get('/tables/msg', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).to.equal('gzip');
    expect(((await gz.json()) as unknown[]).length).to.equal(40);
  });

  it('names from Object.prototype are no assets, no tables, no query keys', async function () {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__']) {
      await jsonError(await t.get(`/docs/assets/${name}`), 404);
      await jsonError(await t.get(`/tables/${name}`), 404);
      expect(await jsonError(await t.get(`/tables/msg?${name}=1`), 400)).to.contain(name);
    }
    expect((await t.get('/docs/assets/swagger-ui.css')).status).to.equal(200);
  });

  it('a write body must be application/json: other or missing types are a JSON 415', async function () {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      expect(await jsonError(await post('{}', { 'content-type': type }), 415), type).to.contain(type);
    }
    await jsonError(await post(new Uint8Array([0x7b, 0x7d]), {}), 415);
    const ok = await post('{"a":1}', { 'content-type': 'application/json; charset=utf-8' });
    expect(await ok.json()).to.deep.equal({ name: 'x', body: { a: 1 } });
  });

  it(`a body nested deeper than ${MAX_BODY_DEPTH} levels is a 400 naming the limit`, async function () {
    const deepest = await post(nested(MAX_BODY_DEPTH));
    expect(deepest.status).to.equal(200);
    for (const depth of [MAX_BODY_DEPTH + 1, 3_000, 100_000]) {
      const detail = await jsonError(await post(nested(depth)), 400);
      expect(detail, String(depth)).to.contain(`deeper than ${MAX_BODY_DEPTH} levels`);
    }
  });

  it('NUL characters and invalid UTF-8 in a body are 400s that name the problem', async function () {
    expect(await jsonError(await post('{"a":{"b":"x\\u0000y"}}'), 400)).to.match(/NUL character .* at \/a\/b$/);
    expect(await jsonError(await post('{"k\\u0000":1}'), 400)).to.contain('NUL character');
    const badUtf8 = new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]);
    expect(await jsonError(await post(badUtf8), 400)).to.contain('not valid UTF-8');
    expect(await jsonError(await post('{"a":'), 400)).to.contain('not valid JSON');
  });

  it('/openapi.json lists write routes with their method, request body and API-key security', async function () {
    type Op = { requestBody?: unknown; security?: unknown; parameters: Array<{ name: string; in: string }> };
    const doc = (await (await t.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, Op>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const op = doc.paths['/test/echo/{name}'].post;
    const content = { 'application/json': { schema: { type: 'object' } } };
    expect(op.requestBody).to.deep.equal({ required: true, content });
    expect(op.security).to.deep.equal([{ bearer: [] }, { apiKey: [] }]);
    expect(op.parameters.map((p) => `${p.in}:${p.name}`)).to.deep.equal(['path:name']);
    expect(doc.components.securitySchemes).to.have.keys('bearer', 'apiKey');
    expect(doc.paths['/test/echo/{name}']).to.not.have.property('get');
  });

  it('CORS by default: any origin may read (GET, HEAD, their preflight), no origin may write', async function () {
    const origin = { origin: 'https://app.example' };
    const get = await t.get('/tables/msg', origin);
    expect(get.headers.get('access-control-allow-origin')).to.equal('*');
    expect(get.headers.get('access-control-expose-headers')).to.contain('X-Request-Id');
    const failed = await t.get('/tables/nope', origin);
    expect(failed.headers.get('access-control-allow-origin'), 'errors are readable too').to.equal('*');
    const preflightOf = (path: string, method: string, headers = {}): Promise<Response> =>
      fetch(t.url + path, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': method, ...headers },
      });
    const preflight = await preflightOf('/tables/msg', 'GET', { 'access-control-request-headers': 'x-request-id' });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET, HEAD, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).to.equal('x-request-id');
    const writePreflight = await preflightOf('/test/echo/x', 'POST');
    expect(writePreflight.headers.get('access-control-allow-origin')).to.equal(null);
    const write = await post('{}', { ...origin, 'content-type': 'application/json' });
    expect(write.status).to.equal(200);
    expect(write.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('CORS origins are configurable: a list allows only its origins, an empty one none', async function () {
    const origins = (v: string | undefined): string[] =>
      loadConfig({ env: v === undefined ? {} : { TZIDX_CORS_ORIGINS: v } }).corsOrigins;
    expect(origins('https://a.example, https://b.example')).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(origins('')).to.deep.equal([]);
    expect(origins(undefined)).to.deep.equal(['*']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-cors-'));
    const fromFile = (yaml: string): string[] => {
      fs.writeFileSync(path.join(dir, 'c.yaml'), yaml);
      return loadConfig({ file: path.join(dir, 'c.yaml') }).corsOrigins;
    };
    try {
      expect(fromFile('cors_origins: ["https://a.example"]\n')).to.deep.equal(['https://a.example']);
      expect(() => fromFile('cors_origins: ["ftp://a.example/x"]\n')).to.throw(ConfigError, /cors_origins/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const instance = (corsOrigins: string[]): Promise<TestInstance> =>
      startTestInstance({ catalogYaml: CATALOG, plugins: [EdgePlugin], config: { corsOrigins } });
    const [listed, closed] = [await instance(['https://a.example']), await instance([])];
    const allowed = async (i: TestInstance, origin: string): Promise<string | null> =>
      (await i.get('/tables/msg', { origin })).headers.get('access-control-allow-origin');
    try {
      const ok = await listed.get('/tables/msg', { origin: 'https://a.example' });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('https://a.example');
      expect(ok.headers.get('vary')).to.match(/origin/i);
      expect(await allowed(listed, 'https://evil.example')).to.equal(null);
      expect(await allowed(closed, 'https://a.example')).to.equal(null);
    } finally {
      await listed.close();
      await closed.close();
    }
  });
});
