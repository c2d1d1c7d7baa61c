import { expect } from 'chai';
import { METADATA_IMPORT, MetadataImport } from '../../framework/extensions/MetadataImport';
import { SandboxChain } from '../../framework/sandbox';
import { BakingPlugin } from '../../plugins/baking/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { PLUGINS, send } from './support';

/** `meta=1` on baker objects (the baking plugin's /explorer/bakers/{hash}) and the baker list. */
describe('metadata: meta=1 on baker objects', function () {
  this.timeout(120_000);
  const chain = new SandboxChain({ seed: 'baker-meta', profile: 'tiny' });
  let t: TestInstance;

  before(async () => {
    chain.bakeTo(10);
    t = await startTestInstance({
      plugins: [...PLUGINS, BakingPlugin],
      config: { metadata: { resolver: { enabled: false } } },
    });
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  // Issue #51: the SDK's Baker has one index.Metadata (`address` and the schemas), not a map by address.
  it("embeds the baker's own metadata entry with its address, and nothing without meta=1", async () => {
    const baker = chain.book.bakers[0].address;
    await t.app.container.resolve<MetadataImport>(METADATA_IMPORT)(
      [{ address: baker, alias: { name: 'Baker Zero', kind: 'validator' } }],
      'test',
    );
    const plain = await send(t, 'GET', `/explorer/bakers/${baker}`);
    expect(plain.status).to.equal(200);
    expect(plain.json).to.not.have.property('metadata');
    type Meta = { address: string; alias: { name: string } };
    const withMeta = (await send(t, 'GET', `/explorer/bakers/${baker}?meta=1`)).json as {
      address: string;
      metadata: Meta;
    };
    expect(withMeta.address).to.equal(baker);
    expect(withMeta.metadata).to.deep.equal({ address: baker, alias: { name: 'Baker Zero', kind: 'validator' } });
    const other = chain.book.bakers[1].address;
    expect((await send(t, 'GET', `/explorer/bakers/${other}?meta=1`)).json).to.have.property('metadata', null);
  });
});
