import { expect } from 'chai';
import { ErrorCode, mutezToTez } from '../../framework';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { readTable } from '../core-chain/support/tableReader';
import { expectError, getJson, type Obj } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { ownUnstake } from './support/OwnUnstake';

const HEAD = 44;
const tez = (mutez: bigint): number => Number(mutezToTez(mutez));
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** What the node says limits a baker's stake and delegation at the head, and the baking power it gives. */
interface NodeView {
  stakingCapacity: bigint;
  delegationCapacity: bigint;
  external: bigint;
  /** Delegated tez the protocol weighs (overstaked tez included), before the delegation cap. */
  delegated: bigint;
}

describe(`baking: baker capacities against the node's delegate view (${BACKEND})`, function () {
  this.timeout(300_000);
  // The smallest baker unstakes most of its own stake from level 20 on: over-delegated at the head.
  const chain = new SandboxChain({
    seed: 'capacity',
    profile: 'tiny',
    extensions: [ownUnstake(20)],
    traffic: ['test:own-unstake'],
  });
  const transport = new SandboxRpcTransport(chain);
  const node = async (path: string) => JSON.parse((await transport.get(`/chains/main/blocks/${HEAD}/${path}`)).body);
  const views = new Map<string, NodeView>();
  let t: TestInstance;

  before(async function () {
    chain.bakeTo(HEAD);
    t = await startBakingInstance();
    await indexSandbox(t, chain, {});
    const c = await node('context/constants');
    for (const d of (await node('context/delegates')) as string[]) {
      const i = await node(`context/delegates/${d}`);
      const own = BigInt(i.own_staked);
      const external = BigInt(i.external_staked);
      const limit = BigInt(i.active_staking_parameters.limit_of_staking_over_baking_millionth);
      const stakingCapacity =
        (own * min(limit, BigInt(c.global_limit_of_staking_over_baking) * 1_000_000n)) / 1_000_000n;
      const delegationCapacity = own * BigInt(c.limit_of_delegation_over_baking);
      const over = external > stakingCapacity ? external - stakingCapacity : 0n;
      const view = {
        stakingCapacity,
        delegationCapacity,
        external,
        delegated: BigInt(i.min_delegated_in_current_cycle.amount) + over,
      };
      // The capacities are the ones the node's rights use: power = staked within the staking capacity
      // + delegated within the delegation capacity / edge_of_staking_over_delegation.
      const power =
        own +
        min(external, stakingCapacity) +
        min(view.delegated, delegationCapacity) / BigInt(c.edge_of_staking_over_delegation);
      expect(BigInt(i.baking_power), `${d} baking power`).to.equal(power);
      views.set(d, view);
    }
  });
  after(async () => t?.close());

  it("staking and delegation capacities, over-staking, over-delegation and fullness are the node's at the head", async () => {
    const flags = new Set<boolean>();
    for (const [address, v] of views) {
      const got = await getJson<Obj>(t, `/explorer/bakers/${address}`);
      expect(got.staking_capacity, `${address} staking capacity`).to.equal(tez(v.stakingCapacity));
      expect(got.delegation_capacity, `${address} delegation capacity`).to.equal(tez(v.delegationCapacity));
      expect(got.is_over_staked, `${address} over-staked`).to.equal(v.external > v.stakingCapacity);
      expect(got.is_over_delegated, `${address} over-delegated`).to.equal(v.delegated > v.delegationCapacity);
      expect(got.is_full, `${address} full`).to.equal(v.delegated >= v.delegationCapacity);
      flags.add(got.is_over_delegated as boolean);
    }
    expect([...flags], 'over-delegated and other bakers').to.have.members([true, false]);
    const page = await getJson<Obj[]>(t, '/explorer/bakers?limit=500');
    for (const b of page) {
      const o = await getJson<Obj>(t, `/explorer/bakers/${b.address}`);
      for (const k of ['staking_capacity', 'delegation_capacity', 'is_over_staked', 'is_over_delegated', 'is_full'])
        expect(b[k], `${b.address} ${k} in the list`).to.equal(o[k]);
    }
  });

  it('suggest=<account>: the active bakers, other than its own, with room for its tez under their delegation capacity', async () => {
    const accounts = await readTable(t, 'account', [
      'address',
      'baker',
      'is_baker',
      'is_contract',
      'spendable_balance',
    ]);
    const users = accounts.filter(
      (a) => a.is_baker !== 'true' && a.is_contract !== 'true' && Number(a.spendable_balance) > 0,
    );
    expect(users.length).to.be.greaterThan(3);
    const outcomes = new Set<number>();
    for (const u of users) {
      const full = BigInt(await node(`context/contracts/${u.address}/full_balance`));
      const staked = BigInt((await node(`context/contracts/${u.address}/staked_balance`)) ?? '0');
      const balance = full - staked;
      const expected = [...views]
        .filter(
          ([b, v]) =>
            b !== u.baker && v.delegated < v.delegationCapacity && v.delegationCapacity - v.delegated >= balance,
        )
        .map(([b]) => b);
      const got = await getJson<Obj[]>(t, `/explorer/bakers?suggest=${u.address}&limit=100`);
      expect(
        got.map((b) => b.address),
        `suggestions for ${u.address} (${balance} mutez)`,
      ).to.have.members(expected);
      outcomes.add(expected.length);
    }
    expect(outcomes.size, 'accounts with different suggestions').to.be.greaterThan(1);
    const baker = [...views.keys()][0];
    await expectError(t, `/explorer/bakers?suggest=${baker}`, 404, ErrorCode.RESOURCE_CONFLICT);
    await expectError(t, '/explorer/bakers?suggest=tz1', 400, ErrorCode.RESOURCE_ID_MALFORMED);
    await expectError(
      t,
      '/explorer/bakers?suggest=tz1burnburnburnburnburnburnburjAYjjX',
      404,
      ErrorCode.RESOURCE_NOTFOUND,
    );
  });
});
