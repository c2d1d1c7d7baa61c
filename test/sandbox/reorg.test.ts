import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { blocksOf, effectiveUpdateLists } from './chainWalk';

describe('sandbox reorgs', function () {
  it('reorg(n) replaces the last n blocks with a branch linked to the fork point', async function () {
    const chain = new SandboxChain({ seed: 'reorg', profile: 'tiny' });
    chain.bake(40);
    const before = Array.from({ length: 41 }, (_, l) => chain.at(l)!.hash);
    const heads: { hash: string; reorg: boolean }[] = [];
    chain.onHead((e) => heads.push(e));
    const fresh = chain.reorg(3);
    expect(fresh.map((b) => b.level)).to.deep.equal([38, 39, 40]);
    expect(chain.headLevel).to.equal(40);
    expect(fresh[0].predecessor).to.equal(before[37]);
    for (let i = 0; i < 3; i++) {
      expect(fresh[i].hash).to.not.equal(before[38 + i]);
      if (i > 0) expect(fresh[i].predecessor).to.equal(fresh[i - 1].hash);
    }
    for (let l = 0; l <= 37; l++) expect(chain.at(l)!.hash).to.equal(before[l]);
    // The new head beats the old one: same level, a locked round and a higher round in the fitness.
    const oldFitness = ['02', (40).toString(16).padStart(8, '0'), ''];
    const newHeader = chain.block('head')!.header as { fitness: string[] };
    expect(newHeader.fitness.slice(0, 2)).to.deep.equal(oldFitness.slice(0, 2));
    expect(newHeader.fitness[2]).to.not.equal('');
    expect(heads).to.deep.equal([{ hash: fresh[2].hash, level: 40, reorg: true }]);
    // Old hashes are gone from the node, new ones are served.
    const t = new SandboxRpcTransport(chain);
    expect((await t.get(`/chains/main/blocks/${before[40]}/header`)).status).to.equal(404);
    expect(JSON.parse((await t.get('/chains/main/blocks/head/hash')).body)).to.equal(fresh[2].hash);
  });

  it('the ledger after a reorg equals a replay of the new branch', async function () {
    const chain = new SandboxChain({ seed: 'reorg-ledger', profile: 'tiny' });
    chain.bake(60);
    chain.reorg(4);
    chain.bake(10);
    chain.reorg(2);
    const replayed = new Map<string, bigint>();
    for (const b of blocksOf(chain))
      for (const list of effectiveUpdateLists(b))
        for (const u of list)
          if (u.kind === 'contract')
            replayed.set(u.contract as string, (replayed.get(u.contract as string) ?? 0n) + BigInt(u.change));
    const t = new SandboxRpcTransport(chain);
    for (const address of chain.book.allAddresses()) {
      const res = await t.get(`/chains/main/blocks/head/context/contracts/${address}/balance`);
      expect(BigInt(JSON.parse(res.body) as string), address).to.equal(replayed.get(address) ?? 0n);
    }
  });

  it('a reorg is deterministic and a chain can keep baking after it', function () {
    const make = () => {
      const c = new SandboxChain({ seed: 'reorg-det', profile: 'tiny' });
      c.bake(30);
      c.reorg(2);
      c.bake(5);
      return c;
    };
    const a = make();
    const b = make();
    expect(a.head.hash).to.equal(b.head.hash);
    expect(a.headLevel).to.equal(35);
  });

  it('rejects depths it cannot roll back', function () {
    const chain = new SandboxChain({ seed: 'reorg-bad', profile: 'tiny', maxReorgDepth: 4 });
    chain.bake(20);
    expect(() => chain.reorg(0)).to.throw(/positive integer/);
    expect(() => chain.reorg(5)).to.throw(/exceeds/);
    expect(chain.headLevel).to.equal(20);
  });
});
