import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';

function render(chain: SandboxChain): string[] {
  const out: string[] = [];
  for (let level = 0; level <= chain.headLevel; level++) out.push(chain.blockJson(chain.at(level)!));
  return out;
}

describe('sandbox determinism', function () {
  it('the same seed and profile give byte-identical chains', function () {
    const a = new SandboxChain({ seed: 7, profile: 'tiny' });
    const b = new SandboxChain({ seed: 7, profile: 'tiny' });
    a.bake(120);
    // Baking in smaller steps must not change anything either.
    for (let i = 0; i < 12; i++) b.bake(10);
    const ra = render(a);
    const rb = render(b);
    expect(rb.length).to.equal(121);
    for (let i = 0; i < ra.length; i++) expect(rb[i], `level ${i}`).to.equal(ra[i]);
  });

  it('rendering is stable: a block re-rendered after the cache is gone is identical', function () {
    const a = new SandboxChain({ seed: 'stable', profile: 'tiny' });
    a.bake(100);
    const first = a.blockJson(a.at(5)!);
    for (let level = 6; level <= 100; level++) a.blockJson(a.at(level)!);
    expect(a.blockJson(a.at(5)!)).to.equal(first);
  });

  it('different seeds give different chains', function () {
    const a = new SandboxChain({ seed: 1, profile: 'tiny' });
    const b = new SandboxChain({ seed: 2, profile: 'tiny' });
    a.bake(20);
    b.bake(20);
    expect(a.identity.chainId).to.not.equal(b.identity.chainId);
    const ha = new Set(Array.from({ length: 20 }, (_, i) => a.at(i + 1)!.hash));
    for (let i = 1; i <= 20; i++) expect(ha.has(b.at(i)!.hash)).to.equal(false);
    expect(a.blockJson(a.at(20)!)).to.not.equal(b.blockJson(b.at(20)!));
  });

  it('uses neither Math.random nor the clock', function () {
    const random = Math.random;
    const now = Date.now;
    Math.random = () => {
      throw new Error('Math.random used');
    };
    Date.now = () => {
      throw new Error('Date.now used');
    };
    try {
      const c = new SandboxChain({ seed: 'no-clock', profile: 'tiny' });
      c.bake(30);
      expect(c.headLevel).to.equal(30);
    } finally {
      Math.random = random;
      Date.now = now;
    }
  });
});
