import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { IndexContext } from '../../framework';
import { BlockDispatcher } from '../../framework/indexer/BlockDispatcher';
import { ContractTypes } from '../../framework/michelson/ContractTypes';
import { plentyFarmAdapter } from '../../plugins/defi-farm/adapters/plenty/adapter';
import type { FarmClaimAction, FarmStakeAction } from '../../plugins/defi-farm/core/FarmAdapter';
import { carrierBlockOf, nodeContext } from '../indexer/support/templeGroups';
import { readFixtureJson } from '../support/fixtures';
import { RecordingFarmSink } from './support/RecordingFarmSink';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const label = (s: string) => createHash('sha256').update(s).digest('hex');
/** The fixtures do not name the farms: stand-in KT1s (the script is what identifies the protocol). */
const FARM = encodeAddress(`01${label('plenty usdt.e/usdc.e farm').slice(0, 40)}00`);
const PNLP = encodeAddress(`01${label('plenty ctez/tez pnlp farm').slice(0, 40)}00`);
const ADDRESS = ContractTypes.fromScript({
  code: [
    { prim: 'parameter', args: [{ prim: 'unit' }] },
    { prim: 'storage', args: [{ prim: 'address' }] },
    { prim: 'code', args: [[]] },
  ],
})!;
const address = (micheline: unknown) => ADDRESS.storage(micheline) as string;

function fixture(dir: string, entrypoint: string): Json {
  return readFixtureJson<Json>('defi', 'pytezos', dir, `${entrypoint}.json`);
}

/**
 * One recorded call to `farm` by `source`. The recordings keep no internal operations: what the farm moved
 * is not known here, so amounts are checked on full mainnet blocks (plentyMainnetBlocks.test.ts).
 */
function content(dir: string, farm: string, entrypoint: string, source: string, counter: number): Json {
  const f = fixture(dir, entrypoint);
  return {
    kind: 'transaction',
    source,
    fee: '1000',
    counter: String(counter),
    gas_limit: '100000',
    storage_limit: '1000',
    amount: '0',
    destination: farm,
    parameters: f.parameters,
    metadata: {
      balance_updates: [],
      operation_result: {
        status: 'applied',
        storage: f.storage,
        lazy_storage_diff: f.lazy_storage_diff ?? [],
        consumed_milligas: '1000',
        storage_size: '1000',
      },
      internal_operation_results: [],
    },
  };
}

/**
 * The balances entry a call wrote (raw Micheline, read here by hand): owner, raw lots, scaled balance, counter,
 * rewards.
 */
function entryOf(dir: string, entrypoint: string) {
  const [u] = fixture(dir, entrypoint).lazy_storage_diff[0].diff.updates;
  const [lotsAndBalance, counter, rewards] = u.value;
  const lots = (lotsAndBalance.args[0] as Json[]).reduce((n, elt) => n + BigInt(elt.args[1].args[0].int), 0n);
  return {
    owner: address(u.key),
    lots,
    balance: BigInt(lotsAndBalance.args[1].int),
    counter: BigInt(counter.int),
    rewards: BigInt(rewards.int),
  };
}

async function run(
  groups: Array<{ hash: string; contents: Json[] }>,
  scripts: Record<string, unknown>,
): Promise<RecordingFarmSink> {
  const block = carrierBlockOf(groups);
  const d = new BlockDispatcher();
  const sink = new RecordingFarmSink();
  plentyFarmAdapter.register(d, sink);
  await d.dispatch(block, { ...nodeContext(scripts), block } as IndexContext);
  return sink;
}

describe('defi-farm: the Plenty adapter on real mainnet Plenty farm calls (pytezos fixtures)', () => {
  const DIR = 'usdt_e_usdc_e_farm';
  const script = readFixtureJson<Json>('defi', 'pytezos', DIR, '__script__.json');
  const types = ContractTypes.fromScript(script)!;
  const calls = ['AddReward', 'stake', 'GetReward'];
  // The oracle: the recorded storages read with the farm's own types, the entries read by hand.
  const stored = calls.map((e) => types.storage(fixture(DIR, e).storage) as Json);
  const staker = entryOf(DIR, 'stake');
  const claimer = entryOf(DIR, 'GetReward');
  let sink: RecordingFarmSink;

  before(async () => {
    const groups = [
      {
        hash: encodeOpHash(label('AddReward')),
        contents: [content(DIR, FARM, 'AddReward', address(fixture(DIR, 'AddReward').storage[0][0].args[0]), 1000)],
      },
      { hash: encodeOpHash(label('stake')), contents: [content(DIR, FARM, 'stake', staker.owner, 1001)] },
      { hash: encodeOpHash(label('GetReward')), contents: [content(DIR, FARM, 'GetReward', claimer.owner, 1002)] },
    ];
    sink = await run(groups, { [FARM]: script });
  });

  it('declares the farm with the stake and reward tokens of its storage', () => {
    const decls = sink.calls.filter((c) => c.call === 'farm');
    expect(decls).to.have.length(1);
    const decl = decls[0].call === 'farm' ? decls[0].decl : undefined;
    expect(stored[0].faTwoToken).to.equal(false);
    expect(decl).to.deep.equal({
      contract: FARM,
      poolId: 0,
      entity: 'plenty',
      stake: { standard: 'fa1.2', contract: stored[0].stakeToken },
      reward: { standard: 'fa1.2', contract: stored[0].rewardToken },
    });
  });

  it('reports update, deposit and claim with the totals of the storage after each call', () => {
    const actions = sink.actions();
    expect(actions.map((a) => a.action.kind)).to.deep.equal(['update', 'deposit', 'claim']);
    // The contract keeps balances and totalSupply scaled; a lot holds the raw amount.
    const scale = [1n, staker.balance / staker.lots, claimer.balance / claimer.lots];
    expect(staker.balance % staker.lots).to.equal(0n);
    expect(scale[1] > 1n, 'a scaled farm').to.equal(true);
    actions.forEach((a, i) => {
      expect(a.supply.totalStake, calls[i]).to.equal(stored[i].totalSupply / scale[i]);
      const left =
        stored[i].periodFinish > stored[i].lastUpdateTime
          ? stored[i].rewardRate * (stored[i].periodFinish - stored[i].lastUpdateTime)
          : 0n;
      expect(a.supply.remainingRewards, calls[i]).to.equal(left);
    });
    // AddReward's schedule is exactly the reward it was given: rate × blocks.
    const [blocks, reward] = fixture(DIR, 'AddReward').parameters.value.args.map((x: Json) => BigInt(x.int));
    expect(actions[0].supply.remainingRewards).to.equal((reward / blocks) * blocks);
  });

  it("reads the owner's state from the entry the call wrote: stake, pending rewards, the new lot's id", () => {
    const [, deposit, claim] = sink.actions().map((a) => a.action) as [unknown, FarmStakeAction, FarmClaimAction];
    expect(deposit).to.deep.include({
      owner: staker.owner,
      sender: staker.owner,
      stakeAfter: staker.lots,
      pending: staker.rewards,
      stakeId: staker.counter - 1n,
    });
    expect(claim).to.deep.include({
      owner: claimer.owner,
      receiver: claimer.owner,
      stakeAfter: claimer.lots,
      pending: claimer.rewards,
    });
  });

  it('leaves the PNLP staking proxies alone: same entrypoints, no stake or reward token of their own', async () => {
    const P = 'ctez_tez_pnlp_farm';
    const who = 'tz1bGsPjPqEscSKoFMDJ1dz6Nwcjrw9Yp5wU';
    const groups = ['stake', 'unstake', 'GetReward'].map((e, i) => ({
      hash: encodeOpHash(label(`pnlp ${e}`)),
      contents: [content(P, PNLP, e, who, 2000 + i)],
    }));
    const proxy = await run(groups, { [PNLP]: readFixtureJson<Json>('defi', 'pytezos', P, '__script__.json') });
    expect(proxy.calls).to.deep.equal([]);
  });
});
