import { expect } from 'chai';
import { MockAgent } from 'undici';
import { silentLogger } from '../../framework/util/Logger';
import { PluginTables } from '../../plugins/metadata/PluginTables';
import { DocumentFetcher } from '../../plugins/metadata/resolver/DocumentFetcher';
import { DocumentResolver } from '../../plugins/metadata/resolver/DocumentResolver';
import { readFixtureJson } from '../support/fixtures';
import { TestInstance } from '../support/TestInstance';
import { metadataInstance, send } from './support';

const GATEWAY = 'https://gateway.test';
const SETTINGS = { ipfsGateway: GATEWAY, timeoutMs: 200, maxBytes: 2048 };
const HDAO_DOC = readFixtureJson<Record<string, unknown>>(
  'metadata',
  'tzip16',
  'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW.json',
);

/** A mock network: nothing leaves the process, unmatched requests fail. */
function mockNet(): { agent: MockAgent; pool: ReturnType<MockAgent['get']> } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, pool: agent.get(GATEWAY) };
}

describe('metadata: off-chain document fetcher', () => {
  it('fetches ipfs:// through the gateway and parses the document', async () => {
    const { agent, pool } = mockNet();
    pool.intercept({ path: '/ipfs/QmHdao' }).reply(200, JSON.stringify(HDAO_DOC));
    expect(await new DocumentFetcher(SETTINGS, agent).fetch('ipfs://QmHdao')).to.deep.equal({ document: HDAO_DOC });
  });

  it('follows redirects (a gateway sending to another)', async () => {
    const { agent, pool } = mockNet();
    pool.intercept({ path: '/ipfs/moved' }).reply(302, '', { headers: { location: `${GATEWAY}/ipfs/QmHdao` } });
    pool.intercept({ path: '/ipfs/QmHdao' }).reply(200, JSON.stringify(HDAO_DOC));
    expect(await new DocumentFetcher(SETTINGS, agent).fetch('ipfs://moved')).to.deep.equal({ document: HDAO_DOC });
  });

  it('records 404, invalid JSON, oversize (declared and streamed) and timeouts as errors', async () => {
    const { agent, pool } = mockNet();
    pool.intercept({ path: '/ipfs/missing' }).reply(404, 'not found');
    pool.intercept({ path: '/ipfs/broken' }).reply(200, '{"name": ');
    pool.intercept({ path: '/ipfs/big' }).reply(200, 'x'.repeat(5000), { headers: { 'content-length': '5000' } });
    pool.intercept({ path: '/ipfs/bigstream' }).reply(200, `{"a":"${'y'.repeat(5000)}"}`);
    pool.intercept({ path: '/ipfs/slow' }).reply(200, '{}').delay(2000);
    const f = new DocumentFetcher(SETTINGS, agent);
    expect((await f.fetch('ipfs://missing')).error).to.equal(`HTTP 404 from ${GATEWAY}/ipfs/missing`);
    expect((await f.fetch('ipfs://broken')).error).to.match(/^invalid JSON/);
    expect((await f.fetch('ipfs://big')).error).to.equal('document larger than 2048 bytes');
    expect((await f.fetch('ipfs://bigstream')).error).to.equal('document larger than 2048 bytes');
    expect((await f.fetch('ipfs://slow')).error).to.match(/^timed out after 200 ms/);
    expect((await f.fetch('tezos-storage:data')).error).to.match(/^not a fetchable URI/);
  });
});

describe('metadata: background resolver', () => {
  let t: TestInstance;
  before(async () => {
    t = await metadataInstance();
  });
  after(() => t?.close());

  it('fills documents for token URIs, retries failures with backoff, then gives up', async () => {
    const contract = 'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW';
    const token = (id: number, uri: string): Record<string, unknown> => ({
      row_id: BigInt(id + 1),
      contract,
      token_id: BigInt(id),
      token_key: `${contract}_${id}`,
      kind: 'fa2',
      uri,
      first_height: 1,
      first_time: new Date('2021-03-01T00:00:00Z'),
      update_height: 1,
    });
    await t.insert('token', [token(0, 'ipfs://QmGood'), token(1, 'ipfs://QmGone')]);
    const { agent, pool } = mockNet();
    pool.intercept({ path: '/ipfs/QmGood' }).reply(200, JSON.stringify({ name: 'hDAO', symbol: 'hDAO', decimals: 6 }));
    pool.intercept({ path: '/ipfs/QmGone' }).reply(404, '').times(3);
    const resolver = new DocumentResolver(
      t.app.db.writer,
      new PluginTables(t.app.catalog),
      new DocumentFetcher(SETTINGS, agent),
      { attempts: 2, backoffMs: 60_000 },
      silentLogger,
    );

    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = (): Date => new Date(clock);
    expect(await resolver.runAll(now)).to.equal(2);
    // Nothing is due until the backoff has passed.
    expect(await resolver.runAll(now)).to.equal(0);
    const docs = async (): Promise<Record<string, Record<string, unknown>>> => {
      const rows = await t.app.db.reader
        .withSchema('metadata')
        .from('metadata_documents')
        .select('uri', 'status', 'attempts', 'next_try_time', 'error');
      // The status column stores its label's position (an enum): named again as the API does.
      const status = t.app.catalog.require('metadata_documents').column('status')!.type;
      return Object.fromEntries(
        rows.map((r: Record<string, unknown>) => [r.uri, { ...r, status: status.fromDb(r.status) }]),
      );
    };
    let d = await docs();
    expect(d['ipfs://QmGood']).to.include({ status: 'ok' });
    expect(d['ipfs://QmGone']).to.include({ status: 'error', error: `HTTP 404 from ${GATEWAY}/ipfs/QmGone` });
    expect(Number(d['ipfs://QmGone'].attempts)).to.equal(1);
    expect(new Date(d['ipfs://QmGone'].next_try_time as string).getTime()).to.equal(clock + 60_000);

    clock += 60_000;
    expect(await resolver.runAll(now)).to.equal(1);
    d = await docs();
    expect(Number(d['ipfs://QmGone'].attempts)).to.equal(2);
    expect(d['ipfs://QmGone'].next_try_time).to.equal(null);
    clock += 3_600_000;
    expect(await resolver.runAll(now)).to.equal(0);

    // The registry shows the off-chain fields and each token's metadata status.
    const tokens = (await send(t, 'GET', '/v1/tokens')).json as Array<Record<string, unknown>>;
    expect(tokens.map((x) => [x.token_id, x.symbol, x.decimals, x.metadata_status])).to.deep.equal([
      ['0', 'hDAO', 6, 'ok'],
      ['1', '', 0, 'error'],
    ]);
    const one = (await send(t, 'GET', `/v1/tokens/${contract}_0`)).json as Record<string, unknown>;
    expect(one).to.include({ ledger: contract, token_id: '0', token_type: 'fa2', name: 'hDAO' });
    expect((await send(t, 'GET', `/metadata/${contract}/0`)).json).to.deep.equal({
      address: contract,
      asset_id: 0,
      tz21: { name: 'hDAO', symbol: 'hDAO', decimals: 6 },
    });
    expect((await send(t, 'GET', `/v1/tokens/${contract}_9`)).status).to.equal(404);
    expect((await send(t, 'GET', '/v1/tokens/nonsense')).status).to.equal(400);
  });
});
