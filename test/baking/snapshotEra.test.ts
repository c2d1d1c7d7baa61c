import { expect } from 'chai';
import { selectedIndexQuery, snapshotEra, snapshotIndexAt } from '../../plugins/baking/SnapshotEra';
import { readFixtureJson } from '../support/fixtures';

type Json = Record<string, unknown>;
const constants = (name: string): Json => readFixtureJson<Json>('tezos-rpc', 'context', 'constants', name);

// Recorded mainnet constants and a recorded Emmy raw `cycle/<c>` answer (go-tezos test fixtures).
describe('baking: snapshot eras from recorded protocol constants', () => {
  it('Emmy: a roll snapshot every blocks_per_roll_snapshot blocks, 16 a cycle, preserved_cycles + 2 cycles before the rights', () => {
    const era = snapshotEra(constants('legacy/constants-go-tezos-babylon-era.json'))!;
    expect(era).to.include({ kind: 'emmy', every: 256, lag: 7, cycleLength: 4096 });
    expect(era.tokensPerRoll).to.equal(8_000_000_000n);
    const taken = [...Array(era.cycleLength).keys()].map((p) => snapshotIndexAt(era, p)).filter((i) => i !== undefined);
    expect(taken).to.deep.equal([...Array(16).keys()]);
    expect(snapshotIndexAt(era, 4095)).to.equal(15);
    const query = selectedIndexQuery(era, 200)!;
    expect(query.path).to.equal('context/raw/json/cycle/200');
    expect(query.read(readFixtureJson('tezos-rpc', 'context', 'misc', 'legacy', 'mainnet-raw-cycle.json'))).to.equal(4);
  });

  it('Ithaca and Lima: a stake snapshot every blocks_per_stake_snapshot blocks, asked of selected_snapshot; Paris+: the cycle end', () => {
    for (const name of ['constants-mainnet-ithaca.json', 'constants-lima.json']) {
      const era = snapshotEra(constants(name))!;
      expect(era, name).to.include({ kind: 'tenderbake', every: 512, lag: 6, tokensPerRoll: null });
      expect(selectedIndexQuery(era, 600)?.path).to.equal('context/selected_snapshot?cycle=600');
    }
    const paris = snapshotEra({ blocks_per_cycle: 24576, consensus_rights_delay: 2 })!;
    expect(paris).to.include({ kind: 'paris', lag: 3 });
    expect([snapshotIndexAt(paris, 24575), snapshotIndexAt(paris, 100)]).to.deep.equal([0, undefined]);
    expect(selectedIndexQuery(paris, 9)).to.equal(undefined);
    expect(snapshotEra({ blocks_per_cycle: 8 })).to.equal(undefined);
  });
});
