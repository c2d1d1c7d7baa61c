import { expect } from 'chai';
import * as net from 'node:net';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { StreamEvent } from '../../framework/stream/StreamLog';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { SseReader } from './SseReader';

/**
 * A client that stops reading must not grow the server's memory: once its socket holds more than the
 * bound it gets a final `dropped` event and is disconnected, while a reading client gets everything.
 * The events are pushed straight into the hub's fan-out (the path every committed event takes) so
 * that enough bytes flow to fill the kernel's socket buffers in a few seconds.
 */
describe(`live stream: a stalled client is dropped, memory stays bounded (${BACKEND})`, function () {
  this.timeout(120_000);
  let t: TestInstance;

  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), enabled: ['core-chain'] });
  });
  after(() => t?.close());

  /** A raw connection that sends its /stream request, then never reads. */
  async function stalledClient(): Promise<net.Socket> {
    const stalled = net.connect(Number(new URL(t.url).port), '127.0.0.1');
    stalled.setNoDelay(true);
    await new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
    stalled.write(`GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
    stalled.pause();
    return stalled;
  }

  /** Reads the socket from now on until the server closes it, at most `ms`. */
  async function readToEnd(socket: net.Socket, ms: number): Promise<string> {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.resume();
    await new Promise<void>((resolve, reject) => {
      const late = setTimeout(
        () => reject(new Error(`the server kept the dropped connection open for over ${ms} ms`)),
        ms,
      );
      socket.once('close', () => resolve(clearTimeout(late)));
    });
    return text;
  }

  it('drops the stalled client with a final event; the reading one gets every event', async () => {
    const hub = t.app.stream.hub;
    const bound = 256 * 1024;
    hub.limits.maxBufferedBytes = bound;
    hub.limits.dropGraceMs = 300_000; // it reads its final event only once the reading client got everything
    const stalled = await stalledClient();
    const reader = await SseReader.open(`${t.url}/stream`, {}, (m) => ({ ...m, data: { n: m.data.n } }));
    while (hub.clientCount < 2) await new Promise((r) => setTimeout(r, 20));

    const payload = 'x'.repeat(8 * 1024);
    const total = 4000; // 32 MB: far more than loopback socket buffers hold
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    const step = 8; // 64 KB per commit, well under the bound
    for (let id = 1_000_000; id < 1_000_000 + total; id += step) {
      const batch: StreamEvent[] = [];
      for (let i = id; i < id + step; i++) batch.push({ id: i, type: 'synthetic', height: 1, data: { n: i, payload } });
      hub.fanOut(batch);
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      // The reading client keeps up as a real reader would (within two commits).
      await reader.until(
        () => reader.ended || reader.messages.length >= id - 1_000_000 - step,
        30_000,
        'reader keeps up',
      );
      expect(reader.ended, 'the reading client stays connected').to.equal(false);
    }
    await reader.until(() => reader.events('synthetic').length === total, 60_000, 'every event');
    const got = reader.events('synthetic').map((m) => m.data.n);
    expect(got).to.deep.equal(Array.from({ length: total }, (_, i) => 1_000_000 + i));
    expect(reader.events('dropped')).to.deep.equal([]);
    expect(hub.clientCount, 'the stalled client is gone').to.equal(1);

    // What the stalled client finally reads ends with the `dropped` event, after events in order.
    // The connection closes once that is read: it is not kept alive (65 s) for another request.
    const text = await readToEnd(stalled, 10_000);
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).to.be.greaterThan(0).and.lessThan(total);
    expect(ids).to.deep.equal(Array.from({ length: ids.length }, (_, i) => 1_000_000 + i));
    // (The raw socket sees HTTP chunked framing around each event.)
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)];
    const last = events[events.length - 1];
    expect(last[1], 'final event').to.equal('dropped');
    expect(events.filter((e) => e[1] === 'dropped').length).to.equal(1);
    expect(JSON.parse(last[2]).last_event_id).to.equal(ids[ids.length - 1]);

    // Measured: the server-side send buffer of the stalled client never went past the bound plus one
    // frame, and the heap did not grow with the 32 MB that passed through.
    const frame = payload.length + 100;
    gc();
    const retained = process.memoryUsage().heapUsed - heapBefore;
    const mb = (n: number): string => (n / 1048576).toFixed(1);
    console.log(
      `      stalled client: peak send buffer ${(hub.peakBufferedBytes / 1024).toFixed(0)} KB (bound ${bound / 1024} KB); heap peak +${mb(peakHeap - heapBefore)} MB, retained +${mb(retained)} MB after ${mb(total * frame)} MB streamed`,
    );
    expect(hub.peakBufferedBytes)
      .to.be.greaterThan(0)
      .and.at.most(bound + frame);
    expect(retained).to.be.lessThan(12 * 1024 * 1024);
    reader.close();
    stalled.destroy();
  });

  it('cuts a dropped client that does not read its final event within the grace, freeing its buffer', async () => {
    const hub = t.app.stream.hub;
    hub.limits.maxBufferedBytes = 256 * 1024;
    hub.limits.dropGraceMs = 300;
    const stalled = await stalledClient();
    while (hub.clientCount < 1) await new Promise((r) => setTimeout(r, 20));
    const payload = 'x'.repeat(8 * 1024);
    let id = 2_000_000;
    while (hub.clientCount > 0) {
      expect(id, 'dropped once past the bound').to.be.below(2_000_000 + 4000);
      hub.fanOut(Array.from({ length: 8 }, () => ({ id: id++, type: 'synthetic', height: 1, data: { payload } })));
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 600)); // past the grace, still not reading
    // What the kernel had taken still arrives, then the end; the final event, left in the server's
    // own buffer behind the unread bytes, went with the cut.
    const text = await readToEnd(stalled, 10_000);
    expect(text).to.match(/^id: 2000000$/m);
    expect(text).not.to.contain('event: dropped');
  });
});
