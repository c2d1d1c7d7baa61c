import { expect } from 'chai';
import { Client } from 'pg';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { META_SCHEMA } from '../../framework/storage/SchemaMigrator';
import { waitFor } from '../support/CrashRun';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { SseReader } from '../stream/SseReader';
import {
  expectStreamingStandby,
  HOW_TO_CREATE,
  ServeProcess,
  standbyCluster,
  standbyUrlFor,
  startServe,
} from './Standby';

/**
 * Issue #50 point 4: the indexer writes to the primary, two `tzidx serve` processes read a streaming hot
 * standby of it (TZIDX_TEST_STANDBY_URL, built by .ci/standby). The primary's own API is the oracle: a
 * replica must answer the same bytes at the same height. NOTIFY never reaches a standby, so the replicas
 * follow the committed height; they live through a restart of the standby.
 */
const PLUGINS = ['core-chain', 'defi-dex', 'defi-farm', 'defi-lending'];
/** Tables, series, explorer and DeFi reads, each answering rows on this chain (checked); no lending market
 * opens in these first blocks. */
const REQUESTS = [
  '/tables/block?limit=100',
  '/tables/op?limit=300',
  '/tables/account?limit=100',
  '/tables/flow?limit=200',
  '/series/block?collapse=1m&columns=count&start_date=2026-07-01&end_date=2026-07-02',
  '/explorer/block/10',
  '/explorer/block/10/operations',
  '/explorer/cycle/1',
  '/explorer/protocols',
  '/explorer/config/head',
  '/v1/dex',
  '/v1/dex/trades',
  '/v1/dex/positions',
  '/v1/farm',
];
/** Per request or per process: nothing else may differ. */
const MASKED = new Set(['date', 'x-request-id', 'x-runtime', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function answer(url: string): Promise<Answer> {
  const res = await fetch(url);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!MASKED.has(k)) headers[k] = v;
  });
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('latin1') };
}

/** Where two bodies part (both sides, 80 characters from there), for a readable failure. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (a[i] === b[i]) i++;
  return `at ${i}: ${a.slice(Math.max(0, i - 20), i + 60)} | primary: ${b.slice(Math.max(0, i - 20), i + 60)}`;
}

/** The height the standby's copy of the database has committed, if it can be read yet. */
async function replicatedHeight(url: string): Promise<number | undefined> {
  const c = new Client({ connectionString: url });
  try {
    await c.connect();
    const r = await c.query<{ height: string }>(`select height from ${META_SCHEMA}.sync_state where id = 1`);
    return r.rows[0] ? Number(r.rows[0].height) : undefined;
  } catch {
    return undefined;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const TITLE = 'two tzidx serve replicas on a streaming hot standby';

describe(`${TITLE} (${BACKEND}; Postgres only: PGlite has no standby)`, function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'standby', profile: 'tiny' });
  let indexer: TestInstance;
  let standbyDb: string;
  let cluster: ReturnType<typeof standbyCluster>;
  let replicas: ServeProcess[] = [];
  const readers: SseReader[] = [];

  /** The primary indexes the chain's new blocks; answers the head. */
  const bake = async (n: number): Promise<number> => {
    chain.bake(n);
    await indexSandbox(indexer, chain);
    return chain.headLevel;
  };
  /** Each replica serves `height` (its X-Chain-Height follows the committed cursor). */
  const followed = async (height: number): Promise<void> => {
    for (const r of replicas) {
      const at = async () => {
        const res = await fetch(`${r.url}/explorer/status`).catch(() => undefined);
        return (res?.status === 200 && ((await res.json()) as { indexed: number }).indexed === height) || undefined;
      };
      await waitFor(`replica ${r.url} at height ${height}`, at, 60_000);
    }
  };
  const sameAnswers = async (): Promise<void> => {
    for (const req of REQUESTS) {
      const primary = await answer(indexer.url + req);
      expect([primary.status, primary.body.length > 2], `${req}: ${primary.body.slice(0, 300)}`).to.deep.equal([
        200,
        true,
      ]);
      for (const r of replicas) {
        const got = await answer(r.url + req);
        expect(firstDifference(got.body, primary.body), `${r.url}${req}: the body differs`).to.equal(undefined);
        expect([got.status, got.headers], `${r.url}${req}`).to.deep.equal([primary.status, primary.headers]);
      }
    }
  };

  before(async function () {
    if (BACKEND !== 'postgres') this.skip();
    const server = process.env.TZIDX_TEST_STANDBY_URL;
    if (!server) throw new Error(HOW_TO_CREATE);
    await expectStreamingStandby(server);
    cluster = standbyCluster(server);
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => PLUGINS.includes(p.manifest.name));
    indexer = await startTestInstance({ plugins });
    const head = await bake(16);
    standbyDb = standbyUrlFor(server, indexer.app.config.databaseUrl!);
    // The database arrives by replication: the replicas start once the standby holds the head.
    const replicated = async () => ((await replicatedHeight(standbyDb)) === head ? true : undefined);
    await waitFor('the indexed database on the standby', replicated, 60_000);
    replicas = await Promise.all([startServe(standbyDb, PLUGINS), startServe(standbyDb, PLUGINS)]);
  });
  after(async () => {
    readers.forEach((r) => r.close());
    try {
      cluster?.('start');
    } catch {
      // Running already: the restart test ended as it should.
    }
    await Promise.all(replicas.map((r) => r.stop()));
    await indexer?.close();
  });

  it('both replicas know they read a standby and follow the head the primary commits', async () => {
    for (const r of replicas) expect(r.log()).to.contain('on a hot standby');
    await followed(await bake(3));
  });

  it('answer byte for byte what the primary answers (tables, series, explorer, DeFi)', async () => {
    await followed(chain.headLevel);
    await sameAnswers();
  });

  it("answer the primary's /explorer/tip but for its `status`, which is the answering process's own", async () => {
    type Tip = { status: { mode: string; indexed: number } } & Record<string, unknown>;
    const tip = async (url: string) => (await (await fetch(`${url}/explorer/tip`)).json()) as Tip;
    const { status: primaryStatus, ...primary } = await tip(indexer.url);
    for (const r of replicas) {
      const { status, ...rest } = await tip(r.url);
      expect(rest).to.deep.equal(primary);
      expect([status.mode, status.indexed]).to.deep.equal(['serve', primaryStatus.indexed]);
    }
  });

  it('deliver new blocks on /stream (no NOTIFY reaches a standby)', async () => {
    for (const r of replicas) readers.push(await SseReader.open(`${r.url}/stream?types=block`));
    for (const s of readers) expect(s.status).to.equal(200);
    const from = chain.headLevel + 1;
    const head = await bake(2);
    for (const s of readers) {
      await s.until(() => s.events('block').some((m) => m.data.hash === chain.head.hash), 60_000, 'the new head');
      expect(s.events('block').map((m) => m.data.level)).to.deep.equal([from, head]);
    }
  });

  it('live through a standby restart: 503 JSON with Retry-After while it is down, then the same answers', async () => {
    const from = chain.headLevel + 1;
    cluster('stop');
    // Blocks the primary commits while the standby is down reach the replicas after it is back.
    const head = await bake(2);
    for (const r of replicas) {
      const res = await fetch(`${r.url}/tables/block?limit=1`);
      expect(res.status, r.url).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await res.json()) as { errors: Array<{ status: number }> };
      expect(body.errors[0].status).to.equal(503);
      r.alive();
    }
    cluster('start');
    await followed(head);
    for (const r of replicas) r.alive();
    await sameAnswers();
    for (const s of readers) {
      await s.until(() => s.events('block').some((m) => m.data.hash === chain.head.hash), 60_000, 'the new head');
      expect(
        s
          .events('block')
          .map((m) => m.data.level)
          .filter((l) => Number(l) >= from),
      ).to.deep.equal([from, head]);
      expect(s.ended).to.equal(false);
    }
  });
});
