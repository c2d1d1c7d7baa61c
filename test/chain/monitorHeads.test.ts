import { expect } from 'chai';
import { Readable } from 'node:stream';
import {
  RpcBlockSource,
  RpcHttpError,
  RpcInvalidJsonError,
  RpcNetworkError,
  TezosRpcClient,
  UndiciRpcTransport,
  type BlockRef,
  type RpcResponse,
  type RpcTransport,
} from '../../framework/chain';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import nock, { interceptHttpInSuite } from './support/nock';
import type { Json } from './support/Json';

const NODE = 'http://tezos-node.test:8732';

// Shell headers as /monitor/heads sends them, built from the consecutive edonet recordings.
const edonet = listFixtures('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'edonet')
  .map((f) => readFixtureJson<Json>(f))
  .sort((a, b) => a.header.level - b.header.level)
  .slice(0, 6);
const heads: Json[] = edonet.map((b) => {
  const { level, proto, predecessor, timestamp, validation_pass, operations_hash, fitness, context } = b.header;
  return {
    hash: b.hash,
    level,
    proto,
    predecessor,
    timestamp,
    validation_pass,
    operations_hash,
    fitness,
    context,
    protocol_data: '00',
  };
});
const expectedRef = (h: Json): BlockRef => ({
  hash: h.hash,
  level: h.level,
  predecessor: h.predecessor,
  timestamp: h.timestamp,
  fitness: h.fitness,
});

/** The stream cut into pieces of `size` characters, so JSON values straddle chunks. */
function chunked(text: string, size: number): Readable {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return Readable.from(pieces);
}

async function take<T>(iterable: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) {
    out.push(item);
    if (out.length === count) break;
  }
  return out;
}

describe('chain/monitor heads', () => {
  interceptHttpInSuite();
  const transports: UndiciRpcTransport[] = [];
  const transport = (): UndiciRpcTransport => {
    const t = new UndiciRpcTransport(NODE);
    transports.push(t);
    return t;
  };

  afterEach(async () => {
    for (const t of transports.splice(0)) await t.close();
  });

  for (const size of [1, 7, 64, 100_000]) {
    it(`parses newline-delimited heads cut into ${size}-character chunks`, async () => {
      const text = heads.map((h) => JSON.stringify(h)).join('\n') + '\n';
      nock(NODE)
        .get('/monitor/heads/main')
        .reply(200, () => chunked(text, size));
      const client = new TezosRpcClient(transport());
      const seen = await take(client.monitorHeads(), heads.length);
      expect(seen.map((h) => [h.hash, h.level, h.predecessor, h.proto])).to.deep.equal(
        heads.map((h) => [h.hash, h.level, h.predecessor, h.proto]),
      );
    });
  }

  it('yields the complete heads of a truncated stream, then fails with RpcInvalidJsonError', async () => {
    const text = JSON.stringify(heads[0]) + JSON.stringify(heads[1]).slice(0, 40);
    nock(NODE).get('/monitor/heads/main').reply(200, text);
    const client = new TezosRpcClient(transport());
    const seen: string[] = [];
    const error = await (async () => {
      for await (const head of client.monitorHeads()) seen.push(head.hash);
    })().catch((e: unknown) => e);
    expect(seen).to.deep.equal([heads[0].hash]);
    expect(error).to.be.instanceOf(RpcInvalidJsonError);
  });

  it('fails with RpcHttpError when the node refuses the stream', async () => {
    nock(NODE).get('/monitor/heads/main').reply(503, 'busy');
    const error = await take(new TezosRpcClient(transport()).monitorHeads(), 1).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcHttpError);
  });

  it('RpcBlockSource reconnects after the stream ends and does not repeat the head it already gave', async () => {
    const first = heads
      .slice(0, 2)
      .map((h) => JSON.stringify(h))
      .join('\n');
    // After a reconnect the node starts with its current head again.
    const second = heads
      .slice(1, 4)
      .map((h) => JSON.stringify(h))
      .join('\n');
    const scope = nock(NODE).get('/monitor/heads/main').reply(200, first).get('/monitor/heads/main').reply(200, second);
    const warned: object[] = [];
    const source = new RpcBlockSource(NODE, {
      sleep: async () => undefined,
      logger: { warn: (obj) => warned.push(obj) },
    });
    const controller = new AbortController();
    const seen = await take(source.heads(controller.signal), 4);
    controller.abort();
    await source.close();
    expect(seen).to.deep.equal(heads.slice(0, 4).map(expectedRef));
    expect(scope.isDone()).to.equal(true);
    expect(warned).to.have.length(1);
  });

  it('RpcBlockSource stops following heads when the signal aborts', async () => {
    nock(NODE)
      .get('/monitor/heads/main')
      .reply(200, () => {
        const stream = new Readable({ read: () => undefined });
        stream.push(JSON.stringify(heads[0]) + '\n');
        return stream;
      });
    const source = new RpcBlockSource(NODE);
    const controller = new AbortController();
    const seen: BlockRef[] = [];
    for await (const head of source.heads(controller.signal)) {
      seen.push(head);
      controller.abort();
    }
    await source.close();
    expect(seen).to.deep.equal([expectedRef(heads[0])]);
  });
});

describe('chain/RpcBlockSource over an in-process transport', () => {
  /** Serves recorded blocks by level/hash and `head`, like the sandbox transport. */
  class RecordedNode implements RpcTransport {
    paths: string[] = [];
    constructor(private readonly blocks: Json[]) {}
    async get(path: string): Promise<RpcResponse> {
      this.paths.push(path);
      const match = /^\/chains\/main\/blocks\/([^/?]+)(\/header)?$/.exec(path);
      const top = this.blocks[this.blocks.length - 1];
      const id = match?.[1];
      const block = id === 'head' ? top : this.blocks.find((b) => String(b.header.level) === id || b.hash === id);
      if (!block) return { status: 404, body: '' };
      const body = match?.[2] ? { ...block.header, hash: block.hash } : block;
      return { status: 200, body: JSON.stringify(body) };
    }
    async *monitorHeads(): AsyncIterable<unknown> {
      for (const b of this.blocks) yield { ...b.header, hash: b.hash };
    }
  }

  it('serves head, blocks by level and hash, the next level and heads', async () => {
    const node = new RecordedNode(edonet);
    const source = new RpcBlockSource(node, { sleep: async () => undefined });
    const top = edonet[edonet.length - 1];
    expect(await source.head()).to.deep.equal(expectedRef({ ...top.header, hash: top.hash }));
    expect((await source.blockAt(edonet[1].header.level))?.hash).to.equal(edonet[1].hash);
    expect((await source.blockByHash(edonet[2].hash))?.header.level).to.equal(edonet[2].header.level);
    expect(await source.blockAt(top.header.level + 1)).to.equal(undefined);
    expect(await source.nextLevel(top.header.level - 1)).to.equal(top.header.level);
    expect(await source.nextLevel(top.header.level)).to.equal(undefined);
    const controller = new AbortController();
    const seen = await take(source.heads(controller.signal), edonet.length);
    controller.abort();
    expect(seen.map((h) => h.hash)).to.deep.equal(edonet.map((b) => b.hash));
    await source.close();
  });

  it('turns a failing head stream into RpcNetworkError and RpcBlockSource reconnects after it', async () => {
    let opened = 0;
    const flaky: RpcTransport = {
      get: async () => ({ status: 404, body: '' }),
      monitorHeads: async function* () {
        opened++;
        if (opened === 1) throw new Error('socket closed by peer');
        yield heads[0];
      },
    };
    const error = await take(new TezosRpcClient(flaky).monitorHeads(), 1).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcNetworkError);
    opened = 0;
    const warned: Json[] = [];
    const source = new RpcBlockSource(flaky, {
      sleep: async () => undefined,
      logger: { warn: (obj) => warned.push(obj as Json) },
    });
    const controller = new AbortController();
    const seen = await take(source.heads(controller.signal), 1);
    controller.abort();
    expect(seen).to.deep.equal([expectedRef(heads[0])]);
    expect(warned.map((w) => w.error)).to.deep.equal([
      new RpcNetworkError('/monitor/heads/main', new Error('socket closed by peer')).message,
    ]);
  });
});
