import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { LiveBaker } from '../../framework/sandbox/LiveBaker';

describe('sandbox: the live demo chain keeps advancing through reorgs', function () {
  this.timeout(120_000);

  it('with a high reorg rate, 120 steps still add blocks, reorg several times and never reorg twice in a row', function () {
    const chain = new SandboxChain({ seed: 'live', profile: 'tiny', maxReorgDepth: 64 });
    chain.bakeTo(12);
    const baker = new LiveBaker(chain, 0.5, 2);
    let lastReorgs = 0;
    let consecutive = 0;
    for (let i = 0; i < 120; i++) {
      baker.tick();
      consecutive = baker.reorgs > lastReorgs ? consecutive + 1 : 0;
      expect(consecutive, `step ${i}`).to.be.at.most(1);
      lastReorgs = baker.reorgs;
    }
    expect(baker.reorgs, 'reorgs drawn').to.be.within(10, 80);
    // Every non-reorg step bakes one block: the head moved by exactly that many levels.
    expect(chain.headLevel).to.equal(12 + 120 - baker.reorgs);
  });

  it('at the demo rate (1 %), 600 steps advance the head at every step but the reorgs', function () {
    const chain = new SandboxChain({ seed: 1, profile: 'tiny', maxReorgDepth: 64 });
    chain.bakeTo(10);
    const baker = new LiveBaker(chain, 0.01, 2);
    for (let i = 0; i < 600; i++) baker.tick();
    expect(chain.headLevel).to.equal(10 + 600 - baker.reorgs);
    expect(baker.reorgs).to.be.lessThan(30);
  });
});
