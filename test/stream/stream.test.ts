import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { StreamLog } from '../../framework/stream/StreamLog';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { checkBlockSequence } from './checkSequence';
import { SseReader } from './SseReader';

const CLIENTS = 500;

describe(`live stream /stream (${BACKEND})`, function () {
  this.timeout(240_000);
  let t: TestInstance;
  let chain: SandboxChain;
  const readers: SseReader[] = [];
  let ops: SseReader;
  let logReadsWithoutClients = 0;
  /** Statements that looked for the log's lowest id while nobody listened. */
  let lowestIdReads = 0;

  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain = new SandboxChain({ seed: 'stream', profile: 'tiny' });
    chain.bake(10);
    const after = StreamLog.after;
    StreamLog.after = (...args) => (logReadsWithoutClients++, after(...args));
    const lowest = (q: { sql: string }): void =>
      void (/min\("id"\)/i.test(q.sql) && /stream_events/.test(q.sql) && lowestIdReads++);
    for (const db of [t.app.db.reader, t.app.db.writer]) db.on('query', lowest);
    try {
      await indexSandbox(t, chain);
      // Delivery follows the commit asynchronously: let the first blocks go out before clients connect,
      // so every client's live stream starts after block 10.
      await t.app.stream.hub.settled();
    } finally {
      StreamLog.after = after;
      for (const db of [t.app.db.reader, t.app.db.writer]) db.off('query', lowest);
    }
  });
  after(async () => {
    readers.forEach((r) => r.close());
    ops?.close();
    await t?.close();
  });

  it('reads no events from the log while nobody listens (the clients below still get every block after they join)', () => {
    expect(logReadsWithoutClients).to.equal(0);
    // Only where the log ends: its start is what pruning leaves slow to find (StreamLog.oldest).
    expect(lowestIdReads).to.equal(0);
  });

  it(`${CLIENTS} concurrent clients get every block in order, no gaps across a reorg, rolled-back blocks announced`, async () => {
    for (let i = 0; i < CLIENTS; i++) readers.push(await SseReader.open(`${t.url}/stream?types=block,rollback`));
    ops = await SseReader.open(`${t.url}/stream?types=operation`);
    expect(readers.every((r) => r.status === 200)).to.equal(true);
    expect(t.app.stream.hub.clientCount).to.equal(CLIENTS + 1);

    chain.bake(6);
    await indexSandbox(t, chain);
    chain.reorg(3);
    chain.bake(2);
    await indexSandbox(t, chain);
    await t.app.stream.hub.settled();

    const head = chain.headLevel;
    for (const r of readers)
      await r.until(
        () => r.events('block').some((m) => m.data.level === head && m.data.hash === chain.at(head)!.hash),
        60_000,
        `block ${head}`,
      );
    let rollbacks = 0;
    for (const r of readers) rollbacks += checkBlockSequence(r.messages, chain, 11);
    expect(rollbacks).to.equal(CLIENTS);
    // Every client saw the very same sequence.
    const first = JSON.stringify(readers[0].messages);
    expect(readers.filter((r) => JSON.stringify(r.messages) !== first).length).to.equal(0);
  });

  it('streams operations of live blocks with their roles, and the rollback names the operations it took back', async () => {
    const events = ops.events('operation');
    expect(events.length).to.be.greaterThan(20);
    const rollback = readers[0].events('rollback')[0];
    const backLevels = new Set((rollback.data.blocks as Array<{ level: number }>).map((b) => b.level));
    const takenBack = events
      .filter((e) => backLevels.has(e.data.level as number) && e.id! < rollback.id! && e.data.hash)
      .map((e) => e.data.hash);
    expect(rollback.data.operations).to.deep.equal([...new Set(takenBack)]);
    // Each operation event's hash is an operation of the block it names (oracle: the sandbox's block JSON).
    const current = events.filter((e) => e.id! > rollback.id! || !backLevels.has(e.data.level as number));
    let checked = 0;
    for (const e of current) {
      const block = chain.block(e.data.level as number) as { hash: string; operations: Array<Array<{ hash: string }>> };
      if (e.data.block !== block.hash) continue;
      if (e.data.hash) expect(block.operations.flat().map((o) => o.hash)).to.include(e.data.hash);
      checked++;
    }
    expect(checked).to.be.greaterThan(10);
  });

  it('filters operations by type, address in any role, contract and entrypoint exactly as the full stream says', async () => {
    const all = ops.events('operation');
    const someTx = all.find((e) => e.data.type === 'transaction' && (e.data.addresses as string[]).length > 1)!;
    const who = (someTx.data.addresses as string[])[1];
    const resume = String(readers[0].messages[0].id! - 1);
    const byAddress = await SseReader.open(`${t.url}/stream?types=operation&address=${who}`, {
      'Last-Event-ID': resume,
    });
    const byType = await SseReader.open(`${t.url}/stream?op_type=transaction&last_event_id=${resume}`);
    const call = all.find((e) => e.data.entrypoint && String(e.data.receiver).startsWith('KT1'));
    const byCall = call
      ? await SseReader.open(
          `${t.url}/stream?contract=${call.data.receiver}&entrypoint=${call.data.entrypoint}&last_event_id=${resume}`,
        )
      : undefined;
    const lastId = readers[0].messages[readers[0].messages.length - 1].id!;
    const caughtUp = (r: SseReader) => () => r.messages.some((m) => m.id! >= lastId);
    await byType.until(caughtUp(byType), 30_000, 'type catch-up');
    const expectOps = (r: SseReader, keep: (d: Record<string, unknown>) => boolean) => {
      const got = r.events('operation').map((m) => m.id);
      const want = all.filter((e) => e.id! > Number(resume) && keep(e.data)).map((m) => m.id);
      expect(got).to.deep.equal(want);
      expect(want.length).to.be.greaterThan(0);
    };
    // The address client only receives matching operations; wait for its last expected one.
    const lastOfWho = all.filter((e) => (e.data.addresses as string[]).includes(who)).pop()!.id!;
    await byAddress.until(() => byAddress.messages.some((m) => m.id! >= lastOfWho), 30_000, 'address catch-up');
    expectOps(byAddress, (d) => (d.addresses as string[]).includes(who));
    expect(byAddress.events('block')).to.deep.equal([]);
    expectOps(byType, (d) => d.type === 'transaction');
    expect(byType.events('block').length).to.be.greaterThan(0);
    if (byCall) {
      const lastCall = all
        .filter((e) => e.data.receiver === call!.data.receiver && e.data.entrypoint === call!.data.entrypoint)
        .pop()!.id!;
      await byCall.until(() => byCall.messages.some((m) => m.id! >= lastCall), 30_000, 'call catch-up');
      expectOps(byCall, (d) => d.receiver === call!.data.receiver && d.entrypoint === call!.data.entrypoint);
      byCall.close();
    }
    byAddress.close();
    byType.close();
  });

  it('resumes after Last-Event-ID with exactly the events that followed', async () => {
    const full = readers[1].messages;
    const cut = full[Math.floor(full.length / 2)].id!;
    const resumed = await SseReader.open(`${t.url}/stream?types=block,rollback`, { 'Last-Event-ID': String(cut) });
    const lastId = full[full.length - 1].id!;
    await resumed.until(() => resumed.messages.some((m) => m.id === lastId), 30_000, 'resume catch-up');
    expect(resumed.messages).to.deep.equal(full.filter((m) => m.id! > cut));
    resumed.close();
  });

  it('answers bad parameters with the JSON error body', async () => {
    for (const q of [
      'address=tz1nope',
      'last_event_id=abc',
      'colour=red',
      'types=',
      'types=bogus',
      'types=block,transfer_seen',
      'op_type=transacton',
      'types=dropped',
    ]) {
      const res = await t.get(`/stream?${q}`);
      expect(res.status, q).to.equal(400);
      const body = (await res.json()) as { errors: Array<{ code: number }> };
      expect(body.errors[0].code, q).to.be.oneOf([1007, 1301]);
    }
  });

  // Last: it prunes the log.
  it('resumes a Last-Event-ID older than the kept window from its oldest event, after a reset notice', async () => {
    const full = readers[1].messages;
    const cut = full[Math.floor(full.length / 2)].id!;
    // The window as pruning leaves it: the events up to `cut` are gone.
    await t.app.db.writer('tzidx.stream_events').where('id', '<=', cut).delete();
    const [{ oldest }] = (await t.app.db.writer.raw('select min(id)::int as oldest from tzidx.stream_events'))
      .rows as Array<{ oldest: number }>;
    const resumed = await SseReader.open(`${t.url}/stream?types=block,rollback`, { 'Last-Event-ID': '1' });
    const lastId = full[full.length - 1].id!;
    await resumed.until(() => resumed.messages.some((m) => m.id === lastId), 30_000, 'resume after a reset');
    expect(resumed.messages[0].event).to.equal('reset');
    expect(resumed.messages[0].data).to.deep.include({ last_event_id: 1, oldest_id: oldest });
    expect(resumed.messages.slice(1)).to.deep.equal(full.filter((m) => m.id! >= oldest));
    resumed.close();
  });
});
