import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR, TzidxApp } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { silentLogger } from '../../framework/util/Logger';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

/** Polls until `check` holds (the replica follows the indexer about once a second). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`replica never caught up: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`read-only API replica on the indexer's database (${BACKEND})`, function () {
  this.timeout(120_000);
  let indexer: TestInstance;
  let replica: TzidxApp;
  let url: string;

  before(async function () {
    // A replica shares a database server with the indexer; an in-process PGlite cannot be shared.
    if (BACKEND !== 'postgres') this.skip();
    indexer = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    replica = await TzidxApp.create(indexer.app.config, {
      log: silentLogger,
      available: discoverPlugins([BUILTIN_PLUGIN_DIR]),
      readOnly: true,
    });
    url = (await replica.api.listen(0, '127.0.0.1')).url;
  });
  after(async () => {
    await replica?.close();
    await indexer?.close();
  });

  it('follows the indexed height: headers, status and confirmations move with the indexer', async function () {
    const chain = new SandboxChain({ seed: 'replica', profile: 'tiny' });
    chain.bake(12);
    await indexSandbox(indexer, chain);
    const height = async (): Promise<number> =>
      Number((await fetch(`${url}/explorer/block/head`)).headers.get('x-chain-height'));
    await eventually(async () => (await height()) === 12, 'height 12');
    const status = (await (await fetch(`${url}/explorer/status`)).json()) as { indexed: number };
    expect(status.indexed).to.equal(12);
    const tip = async (base: string): Promise<unknown> =>
      ((await (await fetch(`${base}/explorer/tip`)).json()) as { chain_id: unknown }).chain_id;
    expect(await tip(url))
      .to.be.a('string')
      .and.equal(await tip(indexer.url));

    const hash = (chain.block(3) as { operations: Array<Array<{ hash: string }>> }).operations.flat()[0].hash;
    const confirmations = async (): Promise<number> =>
      ((await (await fetch(`${url}/explorer/op/${hash}`)).json()) as Array<{ confirmations: number }>)[0].confirmations;
    expect(await confirmations()).to.equal(9);

    chain.bake(5);
    await indexSandbox(indexer, chain);
    await eventually(async () => (await height()) === 17, 'height 17');
    expect(await confirmations()).to.equal(14);
  });
});
