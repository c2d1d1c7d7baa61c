import { expect } from 'chai';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig, ConfigError } from '../../framework/config/InstanceConfig';
import { DEFAULT_STREAM_LIMITS } from '../../framework/stream/StreamHub';
import { StreamLog } from '../../framework/stream/StreamLog';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { SseReader } from './SseReader';

/**
 * Issue #51: /stream bypasses the API's admission line, so it has caps of its own (clients at once,
 * filter values, query bytes), `HEAD /stream` answers instead of hanging, and a client that cannot
 * catch up is let go instead of being kept, never live.
 */
const CAPS = { streamMaxClients: 2, streamMaxFilterEntries: 5, streamMaxFilterBytes: 400 };
const ADDRESS = 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on its own socket; resolves once the answer has ended (a hang fails by mocha's timeout). */
function request(method: string, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function errorOf(a: Answer): { code: number; status: number; detail: string } {
  expect(a.headers['content-type']).to.match(/^application\/json/);
  return (JSON.parse(a.body) as { errors: Array<{ code: number; status: number; detail: string }> }).errors[0];
}

describe(`/stream caps and HEAD (${BACKEND})`, function () {
  this.timeout(60_000);
  let t: TestInstance;
  const readers: SseReader[] = [];

  before(async () => {
    t = await startTestInstance({ plugins: [CoreChainPlugin], config: CAPS });
  });
  after(async () => {
    readers.forEach((r) => r.close());
    await t?.close();
  });

  it('HEAD /stream answers the stream headers without a body and holds no client', async () => {
    const a = await request('HEAD', `${t.url}/stream?types=block`);
    expect(a.status).to.equal(200);
    expect(a.headers['content-type']).to.equal('text/event-stream; charset=utf-8');
    expect(a.body).to.equal('');
    expect(t.app.stream.hub.clientCount).to.equal(0);
    // The same checks as GET: a bad filter is refused before any header of the stream.
    expect((await request('HEAD', `${t.url}/stream?types=nonsense`)).status).to.equal(400);
  });

  it(`over ${CAPS.streamMaxClients} clients: 503 JSON with Retry-After; a slot freed is taken again`, async () => {
    for (let i = 0; i < CAPS.streamMaxClients; i++) readers.push(await SseReader.open(`${t.url}/stream`));
    expect(readers.map((r) => r.status)).to.deep.equal([200, 200]);
    const full = await request('GET', `${t.url}/stream`);
    expect(full.status).to.equal(503);
    expect(full.headers['retry-after']).to.match(/^\d+$/);
    expect(errorOf(full).detail).to.match(/stream full: 2 clients/);
    expect(t.app.stream.hub.clientCount).to.equal(2);
    readers.shift()!.close();
    const deadline = Date.now() + 10_000;
    while (t.app.stream.hub.clientCount > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const again = await SseReader.open(`${t.url}/stream`);
    readers.push(again);
    expect(again.status).to.equal(200);
  });

  it(`over ${CAPS.streamMaxFilterEntries} filter values in all lists: 400 JSON; at the cap: accepted`, async () => {
    readers.splice(0).forEach((r) => r.close());
    const addresses = (n: number): string => Array(n).fill(ADDRESS).join(',');
    const tooMany = await request('GET', `${t.url}/stream?address=${addresses(4)}&types=block,operation`);
    expect(tooMany.status).to.equal(400);
    expect(errorOf(tooMany).detail).to.match(/at most 5/);
    const atCap = await SseReader.open(`${t.url}/stream?address=${addresses(3)}&types=block,operation`);
    readers.push(atCap);
    expect(atCap.status).to.equal(200);
  });

  it(`a query over ${CAPS.streamMaxFilterBytes} bytes: 414 JSON, before it is parsed`, async () => {
    const long = await request('GET', `${t.url}/stream?contract=${'x'.repeat(CAPS.streamMaxFilterBytes)}`);
    expect(long.status).to.equal(414);
    expect(errorOf(long).detail).to.match(/at most 400/);
  });

  it('a client whose catch-up read fails (the database gone) gets its stream ended and leaves the hub', async () => {
    readers.splice(0).forEach((r) => r.close());
    const oldest = StreamLog.oldest;
    StreamLog.oldest = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    try {
      const resuming = await SseReader.open(`${t.url}/stream`, { 'Last-Event-ID': '1' });
      expect(resuming.status).to.equal(200);
      await resuming.until(() => resuming.ended, 10_000, 'the stream to end');
    } finally {
      StreamLog.oldest = oldest;
    }
    expect(t.app.stream.hub.clientCount).to.equal(0);
  });

  it('the caps are config keys and environment variables; bad values are refused', () => {
    expect(DEFAULT_STREAM_LIMITS.maxFilterBytes).to.be.below(1_850_000);
    const env = {
      TZIDX_STREAM_MAX_CLIENTS: '7',
      TZIDX_STREAM_MAX_FILTER_ENTRIES: '8',
      TZIDX_STREAM_MAX_FILTER_BYTES: '9',
    };
    expect(loadConfig({ env })).to.include({ streamMaxClients: 7, streamMaxFilterEntries: 8, streamMaxFilterBytes: 9 });
    const many = { TZIDX_STREAM_MAX_CLIENTS: 'many' };
    expect(() => loadConfig({ env: many })).to.throw(ConfigError, /TZIDX_STREAM_MAX_CLIENTS/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-stream-caps-'));
    try {
      const file = path.join(dir, 'tzidx.yaml');
      fs.writeFileSync(file, 'stream_max_clients: 3\nstream_max_filter_entries: 4\nstream_max_filter_bytes: 5000\n');
      const caps = { streamMaxClients: 3, streamMaxFilterEntries: 4, streamMaxFilterBytes: 5000 };
      expect(loadConfig({ file })).to.include(caps);
      // The environment wins over the file.
      expect(loadConfig({ file, env: { TZIDX_STREAM_MAX_CLIENTS: '6' } }).streamMaxClients).to.equal(6);
      fs.writeFileSync(file, 'stream_max_filter_bytes: 0\n');
      expect(() => loadConfig({ file })).to.throw(ConfigError, /stream_max_filter_bytes/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
