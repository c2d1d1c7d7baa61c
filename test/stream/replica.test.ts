import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { replicaPair } from '../support/Replica';
import { startTestInstance } from '../support/TestInstance';
import { checkBlockSequence } from './checkSequence';
import { SseReader } from './SseReader';

describe(`live stream on a read-only replica, fed by LISTEN/NOTIFY (${BACKEND}; Postgres only)`, function () {
  this.timeout(180_000);
  const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]);
  const pair = replicaPair(() => startTestInstance({ plugins }), plugins);

  it('delivers the same sequence as the indexer process, across a reorg', async () => {
    const { indexer, replica, url: replicaUrl } = pair();
    const chain = new SandboxChain({ seed: 'replica-stream', profile: 'tiny' });
    chain.bake(8);
    await indexSandbox(indexer, chain);
    // Both hubs deliver asynchronously after the commit: let the first blocks go out before the
    // clients connect, so both live streams start at the same point.
    await indexer.app.stream.hub.settled();
    await replica.stream.hub.settled();
    const query = '/stream?types=block,rollback,operation';
    const local = await SseReader.open(indexer.url + query);
    const remote = await SseReader.open(replicaUrl + query);
    expect(replica.stream.hub.clientCount).to.equal(1);

    chain.bake(5);
    await indexSandbox(indexer, chain);
    chain.reorg(2);
    chain.bake(1);
    await indexSandbox(indexer, chain);

    const head = chain.at(chain.headLevel)!.hash;
    for (const r of [local, remote])
      await r.until(() => r.events('block').some((m) => m.data.hash === head), 30_000, 'the head block');
    // The head block's operation events follow its block event, on each connection at its own pace:
    // wait until both connections hold as many messages and nothing more arrives for a moment.
    await settledTogether(local, remote, 30_000);
    expect(remote.messages).to.deep.equal(local.messages);
    expect(checkBlockSequence(remote.messages, chain, 9)).to.equal(1);
    expect(remote.events('operation').length).to.be.greaterThan(0);
    // Woken by NOTIFY (one per committed transaction), not by its slow safety poll alone.
    expect(replica.stream.listener!.received).to.be.at.least(3);
    local.close();
    remote.close();
  });
});

async function settledTogether(a: SseReader, b: SseReader, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let last = -1;
  while (Date.now() < deadline) {
    const n = a.messages.length;
    if (n === b.messages.length && n === last) return;
    last = n === b.messages.length ? n : -1;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
