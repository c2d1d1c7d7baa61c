import { expect } from 'chai';
import { ErrorCode } from '../../framework';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { mutez, readTable } from '../core-chain/support/tableReader';
import { expectError, getJson, type Obj } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { expectSnapshotAt } from './support/snapshotOracle';

type Json = Record<string, unknown>;
const HEAD = 60;

describe(`baking: stake snapshots at each cycle's end (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'snapshots', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;

  /** The node's answer about a block (level), parsed; undefined on 404. */
  async function node(level: number, path: string): Promise<unknown> {
    const res = await transport.get(`/chains/main/blocks/${level}/${path}`);
    if (res.status === 404) return undefined;
    expect(res.status, `${level}/${path}`).to.equal(200);
    return JSON.parse(res.body);
  }

  before(async function () {
    chain.bakeTo(HEAD);
    t = await startBakingInstance();
    await indexSandbox(t, chain, {});
  });
  after(async () => t?.close());

  it('holds, per cycle end, every active baker with the own balance, baking power and delegators the node reports then', async () => {
    const rows = await readTable(t, 'snapshot', [
      'cycle',
      'height',
      'address',
      'baker',
      'is_baker',
      'balance',
      'delegated',
      'n_delegations',
      'active_stake',
      'own_stake',
      'n_stakers',
    ]);
    const length = Number(((await node(HEAD, 'context/constants')) as Json).blocks_per_cycle);
    const ends = [...new Set(rows.map((r) => Number(r.height)))].sort((a, b) => a - b);
    // Every complete cycle of the chain, and only cycle ends.
    const lastOfCycle = [...Array(HEAD + 1).keys()].filter(
      (l) =>
        (JSON.parse(chain.blockJson(chain.at(l)!)) as { metadata: { level_info: { cycle_position: number } } }).metadata
          .level_info?.cycle_position ===
        length - 1,
    );
    expect(ends).to.deep.equal(lastOfCycle);
    let delegatorsChecked = 0;
    let stakersSeen = 0;
    for (const level of ends) {
      const at = rows.filter((r) => Number(r.height) === level);
      const seen = await expectSnapshotAt(node, level, at);
      delegatorsChecked += seen.delegators;
      stakersSeen += seen.stakers;
    }
    expect(ends.length).to.be.greaterThan(3);
    expect(delegatorsChecked).to.be.greaterThan(0);
    expect(stakersSeen, 'external stakers at some snapshot').to.be.greaterThan(0);
  });

  it("a baker's income row carries the snapshot its rights came from (null before the first snapshot)", async () => {
    const snapshots = await readTable(t, 'snapshot', [
      'cycle',
      'address',
      'is_baker',
      'balance',
      'delegated',
      'n_delegations',
      'active_stake',
    ]);
    const income = await readTable(t, 'income', [
      'cycle',
      'address',
      'rolls',
      'balance',
      'delegated',
      'n_delegations',
      'active_stake',
    ]);
    const constants = (await node(HEAD, 'context/constants')) as Json;
    const lag = Number(constants.consensus_rights_delay ?? constants.preserved_cycles) + 1;
    const byKey = new Map(snapshots.filter((r) => r.is_baker === 'true').map((r) => [`${r.cycle}_${r.address}`, r]));
    let filled = 0;
    for (const r of income) {
      const snap = byKey.get(`${Number(r.cycle) - lag}_${r.address}`);
      const cols = ['balance', 'delegated', 'n_delegations', 'active_stake'] as const;
      expect(
        cols.map((c) => r[c]),
        `${r.cycle}_${r.address}`,
      ).to.deep.equal(cols.map((c) => (snap ? snap[c] : '')));
      if (snap) filled++;
    }
    expect(filled).to.be.greaterThan(0);
    expect(income.some((r) => r.balance === '')).to.equal(true);
  });

  it("/explorer/bakers/{hash}/snapshot/{cycle} is the snapshot behind the cycle's rights, with its delegators, in mutez", async () => {
    const rows = await readTable(t, 'snapshot', [
      'cycle',
      'height',
      'address',
      'baker',
      'is_baker',
      'balance',
      'delegated',
      'n_delegations',
    ]);
    const constants = (await node(HEAD, 'context/constants')) as Json;
    const lag = Number(constants.consensus_rights_delay ?? constants.preserved_cycles) + 1;
    const withDelegators = rows.filter((r) => r.is_baker === 'true' && Number(r.n_delegations) > 0);
    expect(withDelegators.length).to.be.greaterThan(0);
    for (const r of withDelegators) {
      const cycle = Number(r.cycle) + lag;
      const o = await getJson<Obj>(t, `/explorer/bakers/${r.address}/snapshot/${cycle}`);
      expect(o).to.include({
        baking_cycle: cycle,
        snapshot_cycle: Number(r.cycle),
        snapshot_height: Number(r.height),
        n_delegations: Number(r.n_delegations),
      });
      expect(BigInt(o.own_balance as number)).to.equal(mutez(r.balance));
      expect(BigInt(o.staking_balance as number)).to.equal(mutez(r.balance) + mutez(r.delegated));
      // Baking power: what the node counted for the baker at the snapshot block (no rolls since Tenderbake).
      const info = (await node(Number(r.height), `context/delegates/${r.address}`)) as Json;
      expect(BigInt(o.active_stake as number), `${r.address} power at ${r.height}`).to.equal(
        BigInt(info.baking_power as string),
      );
      expect(o.snapshot_rolls).to.equal(0);
      const mine = rows.filter((d) => d.is_baker !== 'true' && d.baker === r.address && d.cycle === r.cycle);
      expect(
        (o.delegators as Obj[]).map((d) => [d.address, BigInt(d.balance as number), d.is_funded]),
      ).to.have.deep.members(mine.map((d) => [d.address, mutez(d.balance), true]));
    }
    const newest = Math.max(...rows.map((r) => Number(r.cycle)));
    const baker = rows.find((r) => r.is_baker === 'true' && Number(r.cycle) === newest)!;
    expect((await getJson<Obj>(t, `/explorer/bakers/${baker.address}/snapshot/head`)).baking_cycle).to.equal(
      newest + lag,
    );
    await expectError(
      t,
      `/explorer/bakers/${baker.address}/snapshot/${newest + lag + 1}`,
      404,
      ErrorCode.RESOURCE_NOTFOUND,
    );
    await expectError(t, `/explorer/bakers/${baker.address}/snapshot/-1`, 400, ErrorCode.RESOURCE_ID_MALFORMED);
    await expectError(t, `/explorer/bakers/tz1nope/snapshot/3`, 400, ErrorCode.RESOURCE_ID_MALFORMED);
  });
});
