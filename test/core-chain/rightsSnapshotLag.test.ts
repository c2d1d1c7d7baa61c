import { expect } from 'chai';
import { ProtocolSpan, rightsCycle, rightsLag } from '../../plugins/core-chain/explorer/RightsSnapshotLag';

// Mainnet's eras as their constants tell them: Emmy (roll snapshots, preserved_cycles 5), Tenderbake
// from Ithaca (cycle 468 on mainnet; stake snapshots), Paris (consensus_rights_delay 2; its cycle here
// is illustrative). The genesis protocol has no constants.
const genesis: ProtocolSpan = { startCycle: 0, constants: undefined };
const emmy: ProtocolSpan = {
  startCycle: 0,
  constants: { preserved_cycles: 5, blocks_per_roll_snapshot: 256, blocks_per_cycle: 4096 },
};
const ithaca: ProtocolSpan = {
  startCycle: 468,
  constants: {
    preserved_cycles: 5,
    blocks_per_stake_snapshot: 512,
    consensus_committee_size: 7000,
    blocks_per_cycle: 8192,
  },
};
const paris: ProtocolSpan = {
  startCycle: 748,
  constants: { consensus_rights_delay: 2, consensus_committee_size: 7000, blocks_per_cycle: 24576 },
};
const spans = [genesis, emmy, ithaca, paris];

describe("core-chain: the stake snapshot behind a cycle's rights across era changes", function () {
  it('uses the protocol that drew the rights: Emmy + 2, Tenderbake + 1, Paris with its own delay', function () {
    expect(rightsLag(300, spans)).to.equal(7);
    // Cycle 473's rights were drawn at the end of 467 (Emmy, from a snapshot of 466); 474's at the end of 468 (Ithaca,
    // from 468).
    expect(rightsLag(473, spans)).to.equal(7);
    expect(rightsLag(474, spans)).to.equal(6);
    expect(rightsLag(700, spans)).to.equal(6);
    // From Paris on: drawn at the end of cycle − 3, from that cycle's stake.
    expect(rightsLag(760, spans)).to.equal(3);
  });

  it('maps a snapshot cycle to the cycle whose rights it gave, and none for a snapshot no rights came from', function () {
    expect(rightsCycle(466, spans)).to.equal(473);
    expect(rightsCycle(468, spans)).to.equal(474);
    // Emmy would have used 467 for 474, but Ithaca drew 474 from 468: 467's snapshot gave no rights.
    expect(rightsCycle(467, spans)).to.equal(undefined);
    expect(rightsCycle(757, spans)).to.equal(760);
  });

  it('knows nothing without constants, and takes the first indexed protocol for cycles drawn before it', function () {
    expect(rightsLag(10, [genesis])).to.equal(undefined);
    expect(rightsLag(1000, [{ startCycle: 900, constants: paris.constants }])).to.equal(3);
  });
});
