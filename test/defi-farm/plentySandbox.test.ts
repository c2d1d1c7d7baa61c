import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { STAKE_SCALE } from '../../plugins/defi-farm/adapters/plenty/sim/Farm';
import { plentyFarm } from '../../plugins/defi-farm/adapters/plenty/sim/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { leadingInts } from '../defi-dex/support/poolCalls';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const EVENT_COLUMNS = [
  'height',
  'event_type',
  'volume',
  'reward',
  'fee',
  'stake_id',
  'stake_supply',
  'reward_supply',
  'sender',
  'receiver',
  'tx_hash',
];
const POSITION_COLUMNS = [
  'position',
  'owner',
  'stake_balance',
  'stake_deposited',
  'stake_withdrawn',
  'rewards_claimed',
  'rewards_pending',
  'stake_id',
  'is_closed',
  'open_height',
  'close_height',
];
const KIND: Record<string, string> = { stake: 'deposit', unstake: 'withdraw', GetReward: 'claim' };

/** An FA1.2 `transfer` as the sandbox prints it: Pair from (Pair to value). */
function transfer(o: NormalizedOperation): { from: string; to: string; value: bigint } {
  const [from, rest] = (o.parameters as { args: [{ string: string }, { args: [{ string: string }, { int: string }] }] })
    .args;
  return { from: from.string, to: rest.args[0].string, value: BigInt(rest.args[1].int) };
}

describe('defi-farm: the Plenty farm on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'farm-plenty', profile: 'tiny', traffic: ['defi-farm:plenty'] });
  let t: TestInstance;
  let farm: ReturnType<typeof plentyFarm>;
  let pool: string;
  let calls: NormalizedOperation[];
  let events: CsvRow[];
  const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]);

  before(async () => {
    t = await startTestInstance({ plugins: plugins() });
    chain.bakeTo(140);
    await indexSandbox(t, chain);
    farm = plentyFarm(chain.contracts);
    pool = `${farm.address}_0`;
    calls = canonical(chain)
      .flatMap((b) => b.operations)
      .filter(
        (o) =>
          o.receiver === farm.address &&
          o.hash !== '' &&
          o.isSuccess &&
          o.entrypoint !== undefined &&
          o.entrypoint in KIND,
      );
    events = await readTable(t, 'farm_event', EVENT_COLUMNS, `pool=${pool}`);
  });
  after(() => t?.close());

  it('records one event per farm call, stake moved and total stake after it as the storage says', () => {
    expect(calls.filter((c) => c.entrypoint === 'stake').length, 'stakes in the chain').to.be.greaterThan(2);
    expect(
      calls.some((c) => c.entrypoint === 'unstake'),
      'unstakes in the chain',
    ).to.equal(true);
    expect(events.map((e) => [e.tx_hash, e.event_type])).to.deep.equal(calls.map((c) => [c.hash, KIND[c.entrypoint!]]));
    calls.forEach((c, i) => {
      const e = events[i];
      // stake nat | unstake (Pair Amount MapKey) | GetReward Unit
      const p = c.parameters as { int?: string; args?: Array<{ int: string }> };
      const amount =
        c.entrypoint === 'stake' ? BigInt(p.int!) : c.entrypoint === 'unstake' ? BigInt(p.args![0].int) : 0n;
      // Storage ints in order: balances id, totalSupply (×scale), lastUpdateTime, periodFinish, rewardPerTokenStored,
      // rewardRate.
      const [, total, last, finish, , rate] = leadingInts(c.storage, 6);
      expect([e.volume, e.stake_supply, e.reward_supply, e.sender], c.hash).to.deep.equal([
        String(amount),
        String(total / STAKE_SCALE),
        String(rate * (finish - last)),
        c.sender,
      ]);
      if (c.entrypoint === 'unstake') expect(e.stake_id, c.hash).to.equal(p.args![1].int);
    });
  });

  it('withdrawals carry the fee the farm kept: the amount less the stake paid back', () => {
    const back = new Map<string, bigint>();
    for (const o of canonical(chain).flatMap((b) => b.operations)) {
      if (o.sender === farm.address && o.receiver === farm.staked.address && o.entrypoint === 'transfer')
        back.set(o.hash, (back.get(o.hash) ?? 0n) + transfer(o).value);
    }
    const withdrawals = events.filter((e) => e.event_type === 'withdraw');
    expect(withdrawals.length).to.be.greaterThan(0);
    expect(
      withdrawals.some((e) => e.fee !== '0'),
      'a young lot paid a fee',
    ).to.equal(true);
    for (const e of withdrawals) expect(e.fee, e.tx_hash).to.equal(String(BigInt(e.volume) - back.get(e.tx_hash)!));
  });

  it('claims carry the reward token the farm paid out', () => {
    const paid = new Map<string, bigint>();
    for (const o of canonical(chain).flatMap((b) => b.operations)) {
      if (o.sender === farm.address && o.receiver === farm.reward.address && o.entrypoint === 'transfer')
        paid.set(o.hash, (paid.get(o.hash) ?? 0n) + transfer(o).value);
    }
    const claims = events.filter((e) => e.event_type === 'claim');
    expect(claims.length, 'claims').to.be.greaterThan(0);
    for (const e of events) expect(e.reward, e.tx_hash).to.equal(String(paid.get(e.tx_hash) ?? 0n));
  });

  it("the farm row holds the model total; positions hold each staker's balance", async () => {
    const [{ row_id: _id, ...row }] = await readTable(
      t,
      'farm_pool',
      ['total_stake', 'num_positions', 'stake_token', 'reward_token', 'entity'],
      `pool=${pool}`,
    );
    expect(row).to.deep.equal({
      total_stake: String(farm.state.totalSupply / STAKE_SCALE),
      num_positions: row.num_positions,
      stake_token: `${farm.staked.address}_0`,
      reward_token: `${farm.reward.address}_0`,
      entity: 'plenty',
    });
    const positions = await readTable(t, 'farm_position', POSITION_COLUMNS, `pool=${pool}`);
    const owners = new Set(calls.map((c) => c.sender!));
    expect(positions.map((p) => p.owner).sort()).to.deep.equal([...owners].sort());
    for (const p of positions) {
      const mine = events.filter((e) => e.sender === p.owner);
      const sum = (kind: string, col: string) =>
        mine.filter((e) => kind === '*' || e.event_type === kind).reduce((n, e) => n + BigInt(e[col]), 0n);
      const entry = farm.entry(p.owner);
      expect(
        [p.stake_balance, p.stake_deposited, p.stake_withdrawn, p.rewards_claimed, p.rewards_pending],
        p.owner,
      ).to.deep.equal(
        [
          farm.stakeOf(p.owner),
          sum('deposit', 'volume'),
          sum('withdraw', 'volume'),
          sum('*', 'reward'),
          entry?.rewards,
        ].map(String),
      );
      // Closed: no stake and nothing left to claim (the spec's "all stake and rewards withdrawn").
      expect(p.is_closed === 'true', p.owner).to.equal(farm.stakeOf(p.owner) === 0n && entry?.rewards === 0n);
    }
    expect(Number(row.num_positions)).to.equal(positions.filter((p) => p.is_closed === 'false').length);
  });

  it('a reorg leaves the farm tables as a clean run over the new branch has them', async () => {
    chain.reorg(3);
    chain.bake(4);
    await indexSandbox(t, chain);
    const clean = await startTestInstance({ plugins: plugins() });
    try {
      await indexSandbox(clean, chain);
      const strip = (rows: CsvRow[]) => rows.map(({ row_id: _r, ...rest }) => rest);
      for (const [table, cols] of [
        ['farm_pool', ['pool', 'total_stake', 'remaining_rewards', 'num_positions', 'update_height']],
        ['farm_event', EVENT_COLUMNS],
        ['farm_position', POSITION_COLUMNS],
      ] as const) {
        expect(strip(await readTable(t, table, cols)), table).to.deep.equal(strip(await readTable(clean, table, cols)));
      }
    } finally {
      await clean.close();
    }
  });
});
