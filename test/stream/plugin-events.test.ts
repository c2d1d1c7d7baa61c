import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { STAKING_ENTRYPOINTS } from '../../framework/chain';
import type { PluginContext, PluginContribution, PluginManifest } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { StreamRecorder } from '../../framework/stream/StreamRecorder';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { SseReader } from './SseReader';

/** A plugin that publishes one `transfer_seen` event per applied transaction, as a DEX would per trade. */
class TransferEvents {
  static readonly manifest: PluginManifest = { name: 'stream-events', dependsOn: ['core-chain'] };
  setup(ctx: PluginContext): PluginContribution {
    const recorder = ctx.container.resolve(StreamRecorder);
    recorder.declare('transfer_seen');
    return {
      handlers: (registry) =>
        registry.onOperation({ types: ['transaction'] }, (op, ctx) =>
          recorder.publish(ctx, 'transfer_seen', {
            hash: op.hash,
            contract: op.receiver,
            addresses: [op.sender, op.receiver],
          }),
        ),
    };
  }
}

describe(`live stream: plugin events (${BACKEND})`, function () {
  this.timeout(120_000);
  let t: TestInstance;

  before(async () => {
    t = await startTestInstance({
      plugins: [...discoverPlugins([BUILTIN_PLUGIN_DIR]), TransferEvents as never],
      enabled: ['core-chain', 'stream-events'],
    });
  });
  after(() => t?.close());

  it('streams what a plugin publishes right after its block, filtered like operations', async () => {
    const chain = new SandboxChain({ seed: 'plugin-events', profile: 'tiny' });
    chain.bake(2);
    await indexSandbox(t, chain);
    const all = await SseReader.open(`${t.url}/stream?types=block,operation,transfer_seen`);
    chain.bake(6);
    await indexSandbox(t, chain);
    await all.until(() => all.events('block').some((m) => m.data.level === chain.headLevel), 30_000, 'the head');

    // Oracle: the applied transactions among the streamed operations, in order; the plugin's handler
    // names the normalized type, so not the staking calls clients know as transactions too.
    const staking = (d: Record<string, unknown>) =>
      d.sender === d.receiver && STAKING_ENTRYPOINTS.has(d.entrypoint as string);
    const transactions = () =>
      all
        .events('operation')
        .filter((m) => m.data.type === 'transaction' && !staking(m.data) && m.data.status === 'applied')
        .map((m) => m.data.hash);
    // The blocks the client saw open: a plugin event of the block indexed just before it connected may still arrive.
    const first = all.events('block')[0].data.level as number;
    const ofSeenBlocks = () => all.events('transfer_seen').filter((m) => (m.data.level as number) >= first);
    // A block's plugin events follow its block and operation events: wait for the head's to have come, all of them.
    await all.until(
      () =>
        ofSeenBlocks().some((m) => m.data.level === chain.headLevel) && ofSeenBlocks().length >= transactions().length,
      30_000,
      "the head's plugin events",
    );
    const expected = transactions();
    const seen = ofSeenBlocks();
    expect(seen.map((m) => m.data.hash)).to.deep.equal(expected);
    expect(seen.length).to.be.greaterThan(3);
    // Each comes after its block's event, with the block's level.
    for (const e of seen) {
      const block = all.messages.filter((m) => m.event === 'block' && m.id! < e.id!).pop()!;
      expect(e.data.level).to.equal(block.data.level);
    }
    // Address filter on plugin events; op_type filters leave them out.
    const who = seen[0].data.addresses as string[];
    const byAddress = await SseReader.open(`${t.url}/stream?types=transfer_seen&address=${who[0]}&last_event_id=0`);
    const want = seen.filter((m) => (m.data.addresses as string[]).includes(who[0])).map((m) => m.id);
    await byAddress.until(
      () => byAddress.messages.some((m) => m.id === want[want.length - 1]),
      30_000,
      'address catch-up',
    );
    // The replay from id 0 also has the events of the blocks before `all` connected.
    const replayed = byAddress.messages.filter((m) => (m.data.level as number) >= first);
    expect(replayed.map((m) => m.id)).to.deep.equal(want);
    byAddress.close();
    all.close();
  });
});
