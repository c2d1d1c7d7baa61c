import { expect } from 'chai';
import { METADATA_IMPORT, MetadataImport } from '../../framework/extensions/MetadataImport';
import { SandboxChain } from '../../framework/sandbox';
import { GovernancePlugin } from '../../plugins/governance/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { PLUGINS, send } from './support';

/** `meta=1` on election objects: the metadata of the accounts that proposed in the election. */
describe('metadata: meta=1 on election objects', function () {
  this.timeout(120_000);
  // tiny: 16-block voting periods; proposals are injected in the first one.
  const chain = new SandboxChain({ seed: 'governance', profile: 'tiny' });
  let t: TestInstance;

  before(async () => {
    chain.bakeTo(20);
    t = await startTestInstance({
      plugins: [...PLUGINS, GovernancePlugin],
      config: { metadata: { resolver: { enabled: false } } },
    });
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  it("embeds the proposers' metadata keyed by address, and nothing without meta=1", async () => {
    const proposals = (await send(t, 'GET', '/tables/proposal?columns=source&election_id=1')).json as string[][];
    const proposers = [...new Set(proposals.map(([source]) => source))];
    expect(proposers.length, 'proposals in the first period').to.be.greaterThan(0);
    const named = proposers[0];
    await t.app.container.resolve<MetadataImport>(METADATA_IMPORT)(
      [{ address: named, alias: { name: 'Proposer One', kind: 'validator' } }],
      'test',
    );

    const plain = (await send(t, 'GET', '/explorer/election/1')).json as Record<string, unknown>;
    expect(plain).to.not.have.property('metadata');
    const withMeta = (await send(t, 'GET', '/explorer/election/1?meta=1')).json as {
      metadata: Record<string, { alias: { name: string } }>;
    };
    expect(Object.keys(withMeta.metadata)).to.deep.equal([named]);
    expect(withMeta.metadata[named].alias.name).to.equal('Proposer One');
  });
});
