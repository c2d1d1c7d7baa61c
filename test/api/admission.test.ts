import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../framework/config/InstanceConfig';
import type { RouteRegistry } from '../../framework/http/RouteRegistry';
import type { PluginClass, PluginContext } from '../../framework/plugins/Plugin';
import { Database } from '../../framework/storage/Database';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

/** Holds every request of `/test/hold` until opened, counting arrivals; then each reads the database. */
class Gate {
  arrived = 0;
  open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));
}
let gate = new Gate();

/** A test-only plugin whose one route blocks on the current gate: a request that holds its slot at will. */
const HoldPlugin = class {
  static readonly manifest = { name: 'hold', dependsOn: [] };
  setup(ctx: PluginContext) {
    const db = ctx.container.resolve(Database);
    return {
      routes: (r: RouteRegistry) =>
        r.get('/test/hold', 'Hold', async (c) => {
          const g = gate;
          g.arrived++;
          await g.opened;
          c.body = { one: (await db.reader.raw('select 1 as one')).rows[0].one };
        }),
    };
  }
} as unknown as PluginClass;

/** Waits (no deadline but mocha's) until `cond` holds: for states the server reaches asynchronously. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

/** The 503 in the service's error format with a Retry-After; returns its detail. */
async function expectOverloaded(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).to.equal(503);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(res.headers.get('retry-after')).to.equal('1');
  const e = (JSON.parse(text) as { errors: Array<Record<string, unknown>> }).errors[0];
  expect(e).to.include({ code: 1101, status: 503, message: 'service temporarily unavailable' });
  expect(e.request_id).to.be.a('string');
  return e.detail as string;
}

async function expectServed(res: Promise<Response>): Promise<void> {
  const r = await res;
  expect(r.status).to.equal(200);
  expect(await r.json()).to.deep.equal({ one: 1 });
}

/** A GET on its own connection that the test can cut while it waits, as a client giving up does. */
function cuttableGet(url: string): http.ClientRequest {
  const req = http.get(url, { agent: false });
  req.on('error', () => undefined);
  return req;
}

describe(`API admission control (${BACKEND})`, function () {
  let t: TestInstance;
  before(async () => {
    t = await startTestInstance({
      plugins: [HoldPlugin],
      config: { apiMaxInflight: 1, apiQueue: 1, apiQueueTimeoutMs: 600_000 },
    });
  });
  after(() => t?.close());
  afterEach(() => gate.open());

  it('runs one, queues one, refuses the rest at once with a JSON 503 and Retry-After, then serves on', async () => {
    gate = new Gate();
    const admission = t.app.api.admission;
    const running = t.get('/test/hold');
    await until(() => gate.arrived === 1);
    const waiting = t.get('/test/hold');
    await until(() => admission.queued === 1);
    // Answered while the gate is still shut: refused, not left to wait.
    const refused = await Promise.all([t.get('/test/hold'), t.get('/tables/block'), t.get('/test/hold')]);
    for (const res of refused) expect(await expectOverloaded(res)).to.match(/1 requests already waiting/);
    // Status and metrics bypass the line.
    expect((await t.get('/explorer/status')).status).to.equal(200);
    expect((await t.get('/metrics')).status).to.equal(200);
    expect(gate.arrived).to.equal(1);
    gate.open();
    await expectServed(running);
    await expectServed(waiting);
    expect(gate.arrived).to.equal(2);
    // As many at once as fit (one running, one waiting): all served.
    await Promise.all([0, 1].map(() => expectServed(t.get('/test/hold'))));
    expect([admission.inFlight, admission.queued]).to.deep.equal([0, 0]);
  });

  it('a client that disconnects while queued leaves the line and frees its place', async () => {
    gate = new Gate();
    const admission = t.app.api.admission;
    const running = t.get('/test/hold');
    await until(() => gate.arrived === 1);
    const quitter = cuttableGet(`${t.url}/test/hold`);
    await until(() => admission.queued === 1);
    quitter.destroy();
    await until(() => admission.queued === 0);
    const waiting = t.get('/test/hold');
    await until(() => admission.queued === 1);
    await expectOverloaded(await t.get('/test/hold'));
    gate.open();
    await expectServed(running);
    await expectServed(waiting);
    // Two served: the quitter never reached the handler, and its slot was not lost.
    expect(gate.arrived).to.equal(2);
    expect([admission.inFlight, admission.queued]).to.deep.equal([0, 0]);
  });

  it('a request that waits longer than the queue timeout gets the 503 instead of hanging', async () => {
    const quick = await startTestInstance({
      plugins: [HoldPlugin],
      config: { apiMaxInflight: 1, apiQueue: 5, apiQueueTimeoutMs: 50 },
    });
    try {
      gate = new Gate();
      const running = quick.get('/test/hold');
      await until(() => gate.arrived === 1);
      expect(await expectOverloaded(await quick.get('/test/hold'))).to.equal(
        'server busy: no slot within 50 ms, retry after 1 s',
      );
      expect(gate.arrived).to.equal(1);
      gate.open();
      await expectServed(running);
      await expectServed(quick.get('/test/hold'));
      expect([quick.app.api.admission.inFlight, quick.app.api.admission.queued]).to.deep.equal([0, 0]);
    } finally {
      await quick.close();
    }
  });

  it('limits come from the config file keys api_max_inflight, api_queue, api_queue_timeout_ms', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-admission-'));
    try {
      const file = path.join(dir, 'tzidx.yaml');
      fs.writeFileSync(file, 'api_max_inflight: 7\napi_queue: 70\napi_queue_timeout_ms: 700\n');
      const c = loadConfig({ file, env: {} });
      expect([c.apiMaxInflight, c.apiQueue, c.apiQueueTimeoutMs]).to.deep.equal([7, 70, 700]);
      fs.writeFileSync(file, 'api_max_inflight: 0\n');
      expect(() => loadConfig({ file, env: {} })).to.throw(ConfigError, /api_max_inflight/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
