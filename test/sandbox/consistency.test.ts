import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { blocksOf, contentsOf, effectiveUpdateLists } from './chainWalk';

describe('sandbox ledger consistency', function () {
  const chain = new SandboxChain({ seed: 'consistency', profile: 'tiny' });
  chain.bakeTo(240);
  const transport = new SandboxRpcTransport(chain);
  const blocks = blocksOf(chain);

  it('every balance_updates list sums to zero (fees, burns and rewards add up)', function () {
    let lists = 0;
    for (const b of blocks)
      for (const list of effectiveUpdateLists(b)) {
        lists++;
        // `staking` entries count pseudotokens, not mutez: they balance each other, not the tez moves.
        const sum = list.filter((u) => u.kind !== 'staking').reduce((s, u) => s + BigInt(u.change), 0n);
        const tokens = list
          .filter((u) => u.kind === 'staking')
          .reduce((s, u) => s + (u.category === 'delegator_numerator' ? 1n : -1n) * BigInt(u.change), 0n);
        expect(tokens).to.equal(0n);
        expect(sum, `block ${b.header.level}: ${JSON.stringify(list)}`).to.equal(0n);
      }
    expect(lists).to.be.greaterThan(blocks.length * 2);
  });

  it('replaying every balance update from genesis gives the spendable balance the node reports, never negative', async function () {
    const replayed = new Map<string, bigint>();
    for (const b of blocks)
      for (const list of effectiveUpdateLists(b))
        for (const u of list) {
          if (u.kind !== 'contract') continue;
          const next = (replayed.get(u.contract as string) ?? 0n) + BigInt(u.change);
          expect(next >= 0n, `${u.contract} negative at level ${b.header.level}`).to.equal(true);
          replayed.set(u.contract as string, next);
        }
    const addresses = chain.book.allAddresses();
    expect(addresses.length).to.be.greaterThan(30);
    for (const address of addresses) {
      const res = await transport.get(`/chains/main/blocks/head/context/contracts/${address}/balance`);
      expect(res.status).to.equal(200);
      expect(BigInt(JSON.parse(res.body) as string), address).to.equal(replayed.get(address) ?? 0n);
    }
  });

  it('frozen deposits replayed from the updates match each baker staked balance', async function () {
    const frozen = new Map<string, bigint>();
    for (const b of blocks)
      for (const list of effectiveUpdateLists(b))
        for (const u of list) {
          if (u.kind !== 'freezer' || u.category !== 'deposits') continue;
          const staker = u.staker as Record<string, string>;
          const owner = staker.baker_own_stake ?? staker.baker_edge;
          if (owner) frozen.set(owner, (frozen.get(owner) ?? 0n) + BigInt(u.change));
        }
    for (const baker of chain.book.bakers) {
      const res = await transport.get(`/chains/main/blocks/head/context/contracts/${baker.address}/staked_balance`);
      expect(BigInt(JSON.parse(res.body) as string)).to.equal(frozen.get(baker.address));
    }
  });

  it('manager counters strictly increase per source and end at the reported counter', async function () {
    const last = new Map<string, bigint>();
    let seen = 0;
    for (const c of contentsOf(blocks)) {
      if (c.counter === undefined) continue;
      const counter = BigInt(c.counter);
      const prev = last.get(c.source as string);
      if (prev !== undefined) expect(counter > prev, `${c.source} counter ${counter} after ${prev}`).to.equal(true);
      last.set(c.source as string, counter);
      seen++;
    }
    expect(seen).to.be.greaterThan(200);
    for (const [source, counter] of last) {
      const res = await transport.get(`/chains/main/blocks/head/context/contracts/${source}/counter`);
      expect(JSON.parse(res.body)).to.equal(String(counter));
    }
  });

  it('blocks link to their predecessor and levels are consecutive', function () {
    let prev = chain.at(0)!.hash;
    blocks.forEach((b, i) => {
      expect(b.header.level).to.equal(i + 1);
      expect(b.header.predecessor).to.equal(prev);
      prev = b.hash;
    });
  });
});
