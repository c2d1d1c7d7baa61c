import { expect } from 'chai';
import { BitsetBuilder } from '../../plugins/baking/Bitset';
import { CycleRights } from '../../plugins/baking/CycleRights';
import { seededRandom } from '../../framework/util/seededRandom';

describe("baking: a cycle's rights in memory", function () {
  const LEVELS = 600;
  const BAKERS = Array.from({ length: 40 }, (_, i) => `tz1baker${String(i).padStart(2, '0')}`);

  /** Rights drawn at random (seeded), as the node names them, with the plain (level, baker) pairs. */
  function drawn(seed: number): { rights: CycleRights; attesters: Set<string>[]; bakers: string[] } {
    const rnd = seededRandom(seed);
    const rights = new CycleRights(7, 7 * LEVELS);
    const attesters: Set<string>[] = [];
    const bakers: string[] = [];
    for (let p = 0; p < LEVELS; p++) {
      bakers.push(BAKERS[Math.floor(rnd() * BAKERS.length)]);
      rights.addBaking(p, bakers[p]);
      attesters.push(new Set(BAKERS.filter(() => rnd() < 0.3)));
      for (const b of attesters[p]) rights.addAttester(p, b);
    }
    return { rights, attesters, bakers };
  }

  it("names every position's attesters and round-0 baker, and every holder", function () {
    const { rights, attesters, bakers } = drawn(1);
    expect(rights.length).to.equal(LEVELS);
    for (let p = 0; p < LEVELS; p++) {
      expect(new Set(rights.attestersAt(p)), `position ${p}`).to.deep.equal(attesters[p]);
      expect(rights.bakerAt.get(p)).to.equal(bakers[p]);
    }
    expect(rights.attestersAt(LEVELS)).to.deep.equal([]);
    expect(rights.holders()).to.deep.equal(new Set([...bakers, ...attesters.flatMap((s) => [...s])]));
  });

  it("rebuilt from the rights rows' bitsets, it answers as it did when gathered", function () {
    const { rights, attesters, bakers } = drawn(2);
    const rows = BAKERS.map((address) => {
      const baking = new BitsetBuilder();
      const attesting = new BitsetBuilder();
      for (let p = 0; p < LEVELS; p++) {
        if (bakers[p] === address) baking.set(p);
        if (attesters[p].has(address)) attesting.set(p);
      }
      // Stored bytes come back from the drivers as Buffers or hex text.
      return { address, baking_rights: baking.done(), endorsing_rights: `\\x${attesting.done().toString('hex')}` };
    });
    const rebuilt = CycleRights.fromRows(7, 7 * LEVELS, rows);
    expect(rebuilt.length).to.equal(rights.length);
    expect(rebuilt.holders()).to.deep.equal(rights.holders());
    for (let p = 0; p < LEVELS; p++) {
      expect(new Set(rebuilt.attestersAt(p)), `position ${p}`).to.deep.equal(new Set(rights.attestersAt(p)));
      expect(rebuilt.bakerAt.get(p)).to.equal(rights.bakerAt.get(p));
    }
  });
});
