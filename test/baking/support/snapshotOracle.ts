import { expect } from 'chai';
import { mutez, type CsvRow } from '../../core-chain/support/tableReader';

type Json = Record<string, unknown>;
/** The node's answer about a block (level), parsed; undefined on 404. */
export type NodeAt = (level: number, path: string) => Promise<unknown>;

/**
 * Asserts the snapshot rows taken at `level` (`at`: one snapshot's rows) against what the node
 * reports at that level: every active baker with its own full balance, baking power, own stake and
 * stakers, and its funded delegators with their delegate, spendable balance and unstake requests.
 * `power: false` leaves out the baking power (rows that carry the stake counted later instead).
 * Returns how many delegator rows and external stakers were seen.
 */
export async function expectSnapshotAt(
  node: NodeAt,
  level: number,
  at: readonly CsvRow[],
  power = true,
): Promise<{ delegators: number; stakers: number }> {
  let delegatorsChecked = 0;
  let stakersSeen = 0;
  const bakers = at.filter((r) => r.is_baker === 'true');
  const listed = ((await node(level, 'context/delegates')) as string[]).sort();
  const active: string[] = [];
  for (const b of listed)
    if (((await node(level, `context/delegates/${b}`)) as Json).deactivated !== true) active.push(b);
  expect(bakers.map((r) => r.address).sort(), `bakers at ${level}`).to.deep.equal(active);
  for (const r of bakers) {
    const info = (await node(level, `context/delegates/${r.address}`)) as Json;
    expect(mutez(r.balance), `${r.address} own at ${level}`).to.equal(BigInt(info.own_full_balance as string));
    if (power)
      expect(mutez(r.active_stake), `${r.address} power at ${level}`).to.equal(BigInt(info.baking_power as string));
    expect(mutez(r.own_stake), `${r.address} own stake at ${level}`).to.equal(BigInt(info.own_staked as string));
    // The node lists the baker itself among its stakers when it has own stake.
    const stakers = (info.stakers as Json[]).filter((s) => s.staker !== r.address);
    expect(Number(r.n_stakers), `${r.address} stakers at ${level}`).to.equal(stakers.length);
    stakersSeen += stakers.length;
    const mine = at.filter((d) => d.is_baker !== 'true' && d.baker === r.address);
    expect(Number(r.n_delegations)).to.equal(mine.length);
    expect(mutez(r.delegated)).to.equal(mine.reduce((n, d) => n + mutez(d.balance), 0n));
    // Each delegator row: the node's delegate, spendable balance and unstake requests at that level.
    for (const d of mine) {
      const contract = (await node(level, `context/contracts/${d.address}`)) as Json;
      const unstaked = BigInt(
        ((await node(level, `context/contracts/${d.address}/unstaked_frozen_balance`)) as string | undefined) ?? '0',
      );
      expect(contract.delegate, d.address).to.equal(r.address);
      expect(mutez(d.balance), `${d.address} at ${level}`).to.equal(BigInt(contract.balance as string) + unstaked);
      delegatorsChecked++;
    }
    // What the node counts as delegated can only include more (delegations made at genesis that no block shows).
    expect(mutez(r.delegated) <= BigInt(info.external_delegated as string), r.address).to.equal(true);
  }
  return { delegators: delegatorsChecked, stakers: stakersSeen };
}
