import { expect } from 'chai';
import * as fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  RpcAbortedError,
  RpcArgumentError,
  RpcHttpError,
  RpcNotFoundError,
  RpcTimeoutError,
  RpcBlockSource,
  TezosRpcClient,
  UndiciRpcTransport,
  seededRandom,
  type RpcResponse,
  type RpcTransport,
  type TezosRpcClientOptions,
} from '../../framework/chain';
import { fixturePath, readFixtureJson } from '../support/fixtures';
import nock, { interceptHttpInSuite, type Interceptor, type Scope } from './support/nock';
import type { Json } from './support/Json';

const NODE = 'http://tezos-node.test:8732';
const blockText = fs.readFileSync(fixturePath('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11680082.json'), 'utf8');
const blockLevel = (JSON.parse(blockText) as Json).header.level as number;
const blockPath = `/chains/main/blocks/${blockLevel}`;
const fixtureText = (...parts: string[]): string => fs.readFileSync(fixturePath('tezos-rpc', ...parts), 'utf8');
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Logged {
  obj: Json;
  msg?: string;
}

describe('chain/TezosRpcClient over undici (nock)', () => {
  interceptHttpInSuite();
  const clients: TezosRpcClient[] = [];
  let logged: Logged[];

  function makeClient(options: TezosRpcClientOptions = {}): TezosRpcClient {
    const client = new TezosRpcClient(NODE, {
      timeoutMs: 300,
      maxRetries: 4,
      backoff: { baseMs: 1, maxMs: 4, random: seededRandom(1) },
      logger: { warn: (obj, msg) => logged.push({ obj: obj as Json, msg }) },
      ...options,
    });
    clients.push(client);
    return client;
  }

  beforeEach(() => {
    logged = [];
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await (client.transport as UndiciRpcTransport).close();
  });

  // Each fault is injected twice before the node answers correctly.
  const faults: Record<string, (interceptor: Interceptor) => Scope> = {
    'HTTP 503': (i) => i.reply(503, 'node is busy'),
    'HTTP 500 with a node error body': (i) => i.reply(500, '[{"kind":"temporary","id":"failure"}]'),
    'a timeout before the headers': (i) =>
      i.reply(async () => {
        await wait(1_000);
        return [200, blockText];
      }),
    'a body that stalls': (i) =>
      i.reply(
        200,
        () =>
          Readable.from(
            (async function* () {
              yield blockText.slice(0, 100);
              await wait(1_000);
              yield blockText.slice(100);
            })(),
          ),
        { 'Content-Length': String(Buffer.byteLength(blockText)) },
      ),
    'a connection reset': (i) => i.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    'truncated JSON': (i) => i.reply(200, blockText.slice(0, Math.floor(blockText.length / 2))),
    'a body cut by a reset': (i) =>
      i.reply(200, () => {
        const body = new Readable({ read: () => undefined });
        body.push(blockText.slice(0, 5_000));
        setTimeout(() => body.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' })), 5);
        return body;
      }),
    'non-JSON garbage': (i) => i.reply(200, '<html>502 Bad Gateway</html>'),
  };

  it('reads a block fault-free', async () => {
    nock(NODE).get(blockPath).reply(200, blockText);
    const block = await makeClient().block(blockLevel);
    expect(block).to.deep.equal(JSON.parse(blockText));
    expect(logged).to.deep.equal([]);
  });

  for (const [name, inject] of Object.entries(faults)) {
    it(`retries ${name} and returns what the fault-free run returns`, async () => {
      const scope = nock(NODE);
      inject(scope.get(blockPath));
      inject(scope.get(blockPath));
      scope.get(blockPath).reply(200, blockText);
      const block = await makeClient().block(blockLevel);
      expect(block).to.deep.equal(JSON.parse(blockText));
      expect(scope.isDone()).to.equal(true);
      expect(logged.map((l) => l.obj.attempt)).to.deep.equal([1, 2]);
      for (const line of logged) {
        expect(line.obj.path).to.equal(blockPath);
        expect(line.msg).to.match(/retry \d\/4/);
      }
    });
  }

  it('does not retry a 404 and answers undefined for a missing block', async () => {
    const scope = nock(NODE).get(blockPath).reply(404, '').get(blockPath).reply(200, blockText);
    expect(await makeClient().block(blockLevel)).to.equal(undefined);
    expect(scope.pendingMocks()).to.have.length(1);
    expect(logged).to.deep.equal([]);
  });

  it('answers undefined for block data the node pruned (404), without retrying; refuses paths outside the block', async () => {
    const path = `${blockPath}/context/constants`;
    const scope = nock(NODE).get(path).reply(404, '').get(path).reply(200, '{}');
    const source = new RpcBlockSource(makeClient());
    expect(await source.blockRpc(blockLevel, 'context/constants')).to.equal(undefined);
    expect(scope.pendingMocks()).to.have.length(1);
    for (const bad of ['/chains/main/blocks/head', '../../config', 'votes/../../..']) {
      await source.blockRpc(blockLevel, bad).then(
        () => expect.fail(`accepted ${bad}`),
        (e: Error) => expect(e).to.be.instanceOf(RpcArgumentError),
      );
    }
  });

  it('throws RpcNotFoundError on a 404 where the resource must exist, after one attempt', async () => {
    nock(NODE).get('/chains/main/chain_id').reply(404, '');
    const error = await makeClient()
      .chainId()
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcNotFoundError);
    expect((error as RpcNotFoundError).attempts).to.equal(1);
  });

  it('does not retry other 4xx answers', async () => {
    const scope = nock(NODE)
      .get(blockPath)
      .reply(400, '[{"kind":"permanent","id":"invalid_block_id"}]')
      .get(blockPath)
      .reply(200, blockText);
    const error = await makeClient()
      .block(blockLevel)
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcHttpError);
    expect((error as RpcHttpError).status).to.equal(400);
    expect((error as RpcHttpError).retryable).to.equal(false);
    expect((error as RpcHttpError).body).to.contain('invalid_block_id');
    expect(scope.pendingMocks()).to.have.length(1);
  });

  it('caps the number of retries', async () => {
    let requests = 0;
    nock(NODE)
      .get(blockPath)
      .times(20)
      .reply(() => {
        requests++;
        return [503, 'busy'];
      });
    const error = await makeClient({ maxRetries: 3 })
      .block(blockLevel)
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcHttpError);
    expect((error as RpcHttpError).attempts).to.equal(4);
    expect(requests).to.equal(4);
    expect(logged).to.have.length(3);
  });

  it('waits a capped, growing, jittered backoff between attempts', async () => {
    const delays: number[] = [];
    nock(NODE).get(blockPath).times(9).reply(503, 'busy');
    const backoff = { baseMs: 10, maxMs: 80, factor: 2, jitter: 0.5, random: seededRandom(7) };
    const sleep = async (ms: number): Promise<void> => {
      delays.push(ms);
    };
    await makeClient({ maxRetries: 8, backoff, sleep })
      .block(blockLevel)
      .catch(() => undefined);
    expect(delays).to.have.length(8);
    delays.forEach((delay, attempt) => {
      const ceiling = Math.min(80, 10 * 2 ** attempt);
      expect(delay, `retry ${attempt}`).to.be.at.most(ceiling);
      expect(delay, `retry ${attempt}`).to.be.at.least(Math.floor(ceiling * 0.5));
    });
    expect(logged.map((l) => l.obj.delayMs)).to.deep.equal(delays);
  });

  it('stops retrying when the caller aborts during the backoff', async () => {
    const controller = new AbortController();
    const scope = nock(NODE).get(blockPath).reply(503, 'busy').get(blockPath).reply(200, blockText);
    const sleep = (_ms: number, signal?: AbortSignal): Promise<void> =>
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const pending = makeClient({ sleep }).block(blockLevel, controller.signal);
    await wait(50);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcAbortedError);
    expect(scope.pendingMocks()).to.have.length(1);
  });

  it('refetches a block with metadata=always when a receipt is "too large"', async () => {
    const trimmed = JSON.parse(blockText) as Json;
    trimmed.operations[3][0].contents[0].metadata = 'too large';
    nock(NODE)
      .get(blockPath)
      .reply(200, JSON.stringify(trimmed))
      .get(blockPath)
      .query({ metadata: 'always' })
      .reply(200, blockText);
    expect(await makeClient().block(blockLevel)).to.deep.equal(JSON.parse(blockText));
  });

  it('rejects bad arguments before sending anything', async () => {
    const client = makeClient();
    for (const bad of ['head; rm -rf', '-1', 'Bshort', '../../etc']) {
      const error = await client.block(bad).catch((e: unknown) => e);
      expect(error, bad).to.be.instanceOf(RpcArgumentError);
    }
    expect(await client.contractBalance('tz1 bad').catch((e: unknown) => e)).to.be.instanceOf(RpcArgumentError);
    expect(() => new TezosRpcClient('ftp://node')).to.throw(RpcArgumentError);
  });

  it('reads header, chain id, constants and contract data into typed values', async () => {
    const block = JSON.parse(blockText) as Json;
    const kt1 = 'KT1LRboPna9yQY9BrjtQYDS1DVxhKESK4VVd';
    const contractPath = `/chains/main/blocks/head/context/contracts/${kt1}`;
    nock(NODE)
      .get('/chains/main/blocks/head/header')
      .reply(
        200,
        JSON.stringify({ ...block.header, hash: block.hash, protocol: block.protocol, chain_id: block.chain_id }),
      )
      .get('/chains/main/chain_id')
      .reply(200, fixtureText('chain', 'mainnet-chain_id.json'))
      .get('/chains/main/blocks/head/context/constants')
      .reply(200, fixtureText('context', 'constants', 'constants-lima.json'))
      .get(`${contractPath}/script`)
      .reply(200, fixtureText('context', 'contracts', `mainnet-${kt1}-script.json`))
      .get(`${contractPath}/storage`)
      .reply(200, fixtureText('context', 'contracts', `mainnet-${kt1}-storage.json`))
      .get(`${contractPath}/balance`)
      .reply(200, fixtureText('context', 'contracts', `mainnet-${kt1}-balance.json`))
      .get(`${contractPath}/entrypoints`)
      .reply(200, fixtureText('context', 'contracts', `mainnet-${kt1}-entrypoints.json`));
    const client = makeClient();
    const header = await client.header('head');
    expect(header?.hash).to.equal(block.hash);
    expect(header?.level).to.equal(block.header.level);
    expect(await client.chainId()).to.equal(readFixtureJson('tezos-rpc', 'chain', 'mainnet-chain_id.json'));
    expect(await client.constants()).to.deep.equal(
      readFixtureJson('tezos-rpc', 'context', 'constants', 'constants-lima.json'),
    );
    const script = readFixtureJson<Json>('tezos-rpc', 'context', 'contracts', `mainnet-${kt1}-script.json`);
    expect(await client.contractScript(kt1)).to.deep.equal({ code: script.code, storage: script.storage });
    expect(await client.contractStorage(kt1)).to.deep.equal(
      readFixtureJson('tezos-rpc', 'context', 'contracts', `mainnet-${kt1}-storage.json`),
    );
    expect(await client.contractBalance(kt1)).to.equal(
      BigInt(readFixtureJson<string>('tezos-rpc', 'context', 'contracts', `mainnet-${kt1}-balance.json`)),
    );
    const entrypoints = readFixtureJson<Json>('tezos-rpc', 'context', 'contracts', `mainnet-${kt1}-entrypoints.json`);
    expect(await client.contractEntrypoints(kt1)).to.deep.equal(entrypoints.entrypoints);
  });

  it('reads big map values and answers undefined for a missing key', async () => {
    const key = 'exprtdE75BqxaFTSKsrku5t9cuffK6wDWM6St7DiwaWRa8knPnngDp';
    nock(NODE)
      .get(`/chains/main/blocks/head/context/big_maps/515/${key}`)
      .reply(200, fixtureText('context', 'big_maps', 'airgap-big_map-value.json'))
      .get(`/chains/main/blocks/head/context/big_maps/516/${key}`)
      .reply(404, '')
      .get('/chains/main/blocks/head/context/big_maps/162771')
      .query({ offset: 0, length: 5 })
      .reply(200, fixtureText('context', 'big_maps', 'mainnet-big_map-162771-values.json'));
    const client = makeClient();
    expect(await client.bigMapValue(515, key)).to.deep.equal(
      readFixtureJson('tezos-rpc', 'context', 'big_maps', 'airgap-big_map-value.json'),
    );
    expect(await client.bigMapValue(516, key)).to.equal(undefined);
    expect(await client.bigMapValues(162771, { offset: 0, length: 5 })).to.deep.equal(
      readFixtureJson('tezos-rpc', 'context', 'big_maps', 'mainnet-big_map-162771-values.json'),
    );
  });

  it('normalizes baking and attestation rights of every era', async () => {
    const emmyBaking = readFixtureJson<Json[]>(
      'tezos-rpc',
      'context',
      'rights',
      'legacy',
      'mainnet-baking_rights-732756.json',
    );
    const emmyEndorsing = readFixtureJson<Json[]>(
      'tezos-rpc',
      'context',
      'rights',
      'legacy',
      'mainnet-endorsing_rights-822092.json',
    );
    const ithaca = readFixtureJson<Json[]>(
      'tezos-rpc',
      'context',
      'rights',
      'from-test-code',
      'ghostnet-endorsing_rights-93415.json',
    );
    const paris = readFixtureJson<Json[]>(
      'tezos-rpc',
      'context',
      'rights',
      'from-test-code',
      'paris-testnet-attestation_rights-67023.json',
    );
    const tenderbakeBaking = readFixtureJson<Json[]>(
      'tezos-rpc',
      'context',
      'rights',
      'from-test-code',
      'paris-testnet-baking_rights-67030.json',
    );
    const helpers = '/chains/main/blocks/head/helpers';
    nock(NODE)
      .get(`${helpers}/baking_rights`)
      .query({ level: 732756 })
      .reply(200, JSON.stringify(emmyBaking))
      .get(`${helpers}/baking_rights`)
      .query({ level: 67030, max_round: 3, all: 'true' })
      .reply(200, JSON.stringify(tenderbakeBaking))
      .get(`${helpers}/attestation_rights`)
      .query({ level: 822092 })
      .reply(404, '')
      .get(`${helpers}/endorsing_rights`)
      .query({ level: 822092 })
      .reply(200, JSON.stringify(emmyEndorsing))
      .get(`${helpers}/attestation_rights`)
      .query({ level: 93415 })
      .reply(404, '')
      .get(`${helpers}/endorsing_rights`)
      .query({ level: 93415 })
      .reply(200, JSON.stringify(ithaca))
      .get(`${helpers}/attestation_rights`)
      .query({ level: 67023 })
      .reply(200, JSON.stringify(paris));
    const client = makeClient();

    const baking = await client.bakingRights({ level: 732756 });
    expect(baking.map((r) => [r.delegate, r.round])).to.deep.equal(emmyBaking.map((r) => [r.delegate, r.priority]));
    const tbBaking = await client.bakingRights({ level: 67030, maxRound: 3, all: true });
    expect(tbBaking.map((r) => [r.delegate, r.round])).to.deep.equal(
      tenderbakeBaking.map((r) => [r.delegate, r.round]),
    );

    const emmy = await client.attestationRights({ level: 822092 });
    expect(emmy.map((r) => [r.delegate, r.power, r.slots])).to.deep.equal(
      emmyEndorsing.map((r) => [r.delegate, r.slots.length, r.slots]),
    );
    const ithacaRights = await client.attestationRights({ level: 93415 });
    expect(ithacaRights.map((r) => [r.delegate, r.power, r.firstSlot])).to.deep.equal(
      ithaca[0].delegates.map((d: Json) => [d.delegate, d.endorsing_power, d.first_slot]),
    );
    const parisRights = await client.attestationRights({ level: 67023 });
    expect(parisRights.map((r) => [r.delegate, r.power, r.consensusKey])).to.deep.equal(
      paris[0].delegates.map((d: Json) => [d.delegate, d.attestation_power, d.consensus_key]),
    );
  });

  it('reads votes: listings, ballots, proposals, current period', async () => {
    const votes = '/chains/main/blocks/head/votes';
    const listings = readFixtureJson<Json[]>('tezos-rpc', 'context', 'votes', 'legacy', 'mainnet-listings.json');
    const ballots = readFixtureJson<Json>('tezos-rpc', 'context', 'votes', 'legacy', 'mainnet-ballots.json');
    const proposals = readFixtureJson<[string, number][]>(
      'tezos-rpc',
      'context',
      'votes',
      'legacy',
      'mainnet-proposals.json',
    );
    const ballotList = readFixtureJson<Json[]>('tezos-rpc', 'context', 'votes', 'legacy', 'mainnet-ballot_list.json');
    const period = readFixtureJson<Json>('tezos-rpc', 'context', 'votes', 'from-test-code', 'current_period.json');
    nock(NODE)
      .get(`${votes}/listings`)
      .reply(200, JSON.stringify(listings))
      .get(`${votes}/ballots`)
      .reply(200, JSON.stringify(ballots))
      .get(`${votes}/proposals`)
      .reply(200, JSON.stringify(proposals))
      .get(`${votes}/ballot_list`)
      .reply(200, JSON.stringify(ballotList))
      .get(`${votes}/current_period`)
      .reply(200, JSON.stringify(period))
      .get(`${votes}/current_proposal`)
      .reply(200, 'null');
    const client = makeClient();
    expect(await client.votingListings()).to.deep.equal(
      listings.map((l) => ({ pkh: l.pkh, votingPower: BigInt(l.rolls), unit: 'rolls' })),
    );
    expect(await client.ballots()).to.deep.equal({
      yay: BigInt(ballots.yay),
      nay: BigInt(ballots.nay),
      pass: BigInt(ballots.pass),
    });
    expect(await client.proposals()).to.deep.equal(
      proposals.map(([proposal, power]) => ({ proposal, votingPower: BigInt(power) })),
    );
    expect(await client.ballotList()).to.deep.equal(ballotList.map((b) => ({ pkh: b.pkh, ballot: b.ballot })));
    expect(await client.currentPeriod()).to.deep.equal({
      kind: period.voting_period.kind,
      index: period.voting_period.index,
      startPosition: period.voting_period.start_position,
      position: period.position,
      remaining: period.remaining,
    });
    expect(await client.currentProposal()).to.equal(null);
  });
});

describe('chain/TezosRpcClient over an in-process transport', () => {
  /** Like the sandbox: answers from memory; the first call never answers and ignores the signal. */
  class StallingTransport implements RpcTransport {
    calls = 0;
    constructor(private readonly answer: RpcResponse) {}
    get(): Promise<RpcResponse> {
      this.calls++;
      return this.calls === 1 ? new Promise(() => undefined) : Promise.resolve(this.answer);
    }
    async *monitorHeads(): AsyncIterable<unknown> {
      // no heads
    }
  }

  it('times out a call the transport never answers, then retries', async () => {
    const transport = new StallingTransport({ status: 200, body: blockText });
    const client = new TezosRpcClient(transport, { timeoutMs: 30, backoff: { baseMs: 1 } });
    expect(await client.block(blockLevel)).to.deep.equal(JSON.parse(blockText));
    expect(transport.calls).to.equal(2);
  });

  it('reports RpcTimeoutError when every attempt times out', async () => {
    const transport: RpcTransport = { get: () => new Promise(() => undefined), monitorHeads: async function* () {} };
    const client = new TezosRpcClient(transport, { timeoutMs: 10, maxRetries: 2, backoff: { baseMs: 1 } });
    const error = await client.chainId().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcTimeoutError);
    expect((error as RpcTimeoutError).attempts).to.equal(3);
  });
});
