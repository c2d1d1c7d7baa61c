import { expect } from 'chai';
import type { RawBlock } from '../../framework/chain';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { endorsedPower, netIssuance, spendableChanges } from './support/rawEffects';
import { CsvRow, lastRow, mutez, readTable, sumInt, sumMutez } from './support/tableReader';

describe('core-chain: the recorded edonet range (Emmy) indexed as one chain', function () {
  const blocks = listFixtures('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'edonet')
    .map((f) => readFixtureJson<Json>(f))
    .sort((a, b) => a.header.level - b.header.level);
  let t: TestInstance;
  let rows: CsvRow[];

  before(async () => {
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    await indexBlocks(t, blocks as unknown as RawBlock[]);
    rows = await readTable(t, 'block', [
      'hash',
      'height',
      'parent_id',
      'solvetime',
      'n_endorsed_slots',
      'n_ops_applied',
      'minted_supply',
      'burned_supply',
    ]);
  });
  after(async () => t?.close());

  it('has consecutive runs with gaps between them', () => {
    const linked = blocks.filter((b, i) => i > 0 && b.header.predecessor === blocks[i - 1].hash).length;
    expect(linked).to.be.greaterThan(15);
    expect(linked).to.be.lessThan(blocks.length - 1);
  });

  it('links each block to an indexed predecessor, with solvetime and the slots the next block endorsed', () => {
    expect(rows.map((r) => r.hash)).to.deep.equal(blocks.map((b) => b.hash));
    blocks.forEach((b, i) => {
      const prev = blocks[i - 1];
      const next = blocks[i + 1];
      const linked = prev !== undefined && b.header.predecessor === prev.hash;
      expect(rows[i].parent_id, `parent of ${b.header.level}`).to.equal(linked ? rows[i - 1].row_id : '');
      const seconds = linked ? (Date.parse(b.header.timestamp) - Date.parse(prev.header.timestamp)) / 1000 : 0;
      expect(Number(rows[i].solvetime), `solvetime of ${b.header.level}`).to.equal(seconds);
      const endorsed = next !== undefined && next.header.predecessor === b.hash ? endorsedPower(next) : 0;
      expect(Number(rows[i].n_endorsed_slots), `slots of ${b.header.level}`).to.equal(endorsed);
    });
    expect(rows.some((r) => Number(r.n_endorsed_slots) > 0)).to.equal(true);
  });

  it('holds the sum of every account’s balance updates over the whole range', async () => {
    const expected = spendableChanges(blocks);
    const accounts = await readTable(t, 'account', ['address', 'spendable_balance']);
    expect(accounts.length).to.be.at.least(expected.size);
    for (const a of accounts) expect(mutez(a.spendable_balance), a.address).to.equal(expected.get(a.address) ?? 0n);
  });

  it('running chain and supply totals add up the blocks', async () => {
    const chain = await lastRow(t, 'chain', ['height', 'total_ops']);
    expect(Number(chain.height)).to.equal(blocks[blocks.length - 1].header.level);
    expect(BigInt(chain.total_ops)).to.equal(sumInt(rows, 'n_ops_applied'));
    const supply = await lastRow(t, 'supply', ['minted', 'burned', 'total']);
    const minted = blocks.reduce((s, b) => s + netIssuance(b).minted, 0n);
    const burned = blocks.reduce((s, b) => s + netIssuance(b).burned, 0n);
    expect(mutez(supply.minted)).to.equal(minted);
    expect(mutez(supply.burned)).to.equal(burned);
    expect(sumMutez(rows, 'minted_supply')).to.equal(minted);
    expect(sumMutez(rows, 'burned_supply')).to.equal(burned);
    expect(mutez(supply.total)).to.equal(minted - burned);
  });

  it('records one bake event per block, for its baker', async () => {
    const bakes = await readTable(t, 'op', ['type', 'height', 'sender'], 'type=bake');
    expect(bakes.map((b) => [Number(b.height), b.sender])).to.deep.equal(
      blocks.map((b) => [b.header.level, b.metadata.baker]),
    );
  });
});
