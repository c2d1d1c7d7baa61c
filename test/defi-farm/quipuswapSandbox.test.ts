import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { quipuswapFarm } from '../../plugins/defi-farm/adapters/quipuswap/sim/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { leadingInts } from '../defi-dex/support/poolCalls';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { withApiColumns } from '../support/apiColumns';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const P = 10n ** 18n;
const EVENT_COLUMNS = [
  'pool',
  'height',
  'event_type',
  'volume',
  'reward',
  'fee',
  'stake_supply',
  'reward_supply',
  'sender',
  'receiver',
  'tx_hash',
];
const POSITION_COLUMNS = [
  'pool',
  'owner',
  'stake_balance',
  'stake_deposited',
  'stake_withdrawn',
  'rewards_claimed',
  'rewards_pending',
  'is_closed',
  'open_height',
  'close_height',
  'update_height',
];
const KIND: Record<string, string> = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  harvest: 'claim',
  add_new_farm: 'update',
};

/**
 * The raw entries, read from the Micheline without the adapter's types: a farm value's ints are
 * harvest_fee, withdrawal_fee, upd, timelock, reward_per_second, reward_per_share, staked, claimed,
 * start_time, end_time, fid (its token and baker fields hold no int); a user value's are last_staked,
 * staked, earned, claimed, prev_earned, prev_staked.
 */
interface RawFarm {
  withdrawalFee: bigint;
  upd: bigint;
  rate: bigint;
  rps: bigint;
  staked: bigint;
  start: bigint;
  end: bigint;
  stake: string;
  reward: string;
}
function rawFarm(value: unknown): RawFarm {
  const [, withdrawalFee, upd, , rate, rps, staked, , start, end] = leadingInts(value, 11);
  const strings = JSON.stringify(value)
    .match(/"string":"(KT1[^"]+)"/g)!
    .map((s) => s.slice(10, -1));
  return { withdrawalFee, upd, rate, rps, staked, start, end, stake: strings[0], reward: strings[1] };
}
const rawUser = (value: unknown) => {
  const [, staked, earned, , prevEarned] = leadingInts(value, 6);
  return { staked, earned, prevEarned };
};

/** FA1.2 transfers of `token` from `from` to `to` in the group of `hash` (the farm orders them all). */
function transferred(ops: NormalizedOperation[], hash: string, token: string, from: string, to: string): bigint[] {
  return ops
    .filter((o) => o.hash === hash && o.receiver === token && o.entrypoint === 'transfer')
    .map((o) => (o.parameters as { args: [{ string: string }, { args: [{ string: string }, { int: string }] }] }).args)
    .filter(([f, rest]) => f.string === from && rest.args[0].string === to)
    .map(([, rest]) => BigInt(rest.args[1].int));
}

describe('defi-farm: the QuipuSwap TFarm on the sandbox chain', function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'farm-quipuswap', profile: 'tiny', traffic: ['defi-farm:quipuswap'] });
  let t: TestInstance;
  let farm: ReturnType<typeof quipuswapFarm>;
  let ops: NormalizedOperation[];
  let calls: NormalizedOperation[];
  let events: CsvRow[];
  const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]);
  const diffs = (o: NormalizedOperation, id: number) =>
    o.bigMapDiffs.filter(
      (d): d is Extract<typeof d, { action: 'update' }> => d.action === 'update' && d.bigMapId === id,
    );
  const fidOf = (o: NormalizedOperation) => leadingInts(diffs(o, farm.state.farms)[0].key, 1)[0];
  const farmAfter = (o: NormalizedOperation) => rawFarm(diffs(o, farm.state.farms)[0].value);

  before(async () => {
    t = await startTestInstance({ plugins: plugins() });
    chain.bakeTo(150);
    await indexSandbox(t, chain);
    farm = quipuswapFarm(chain.contracts);
    ops = canonical(chain).flatMap((b) => b.operations);
    calls = ops.filter(
      (o) =>
        o.receiver === farm.address &&
        o.hash !== '' &&
        o.isSuccess &&
        o.entrypoint !== undefined &&
        o.entrypoint in KIND,
    );
    events = await readTable(t, 'farm_event', EVENT_COLUMNS, `contract=${farm.address}`);
  });
  after(() => t?.close());

  it('records one event per farm call with the moved amounts and the farm totals the storage holds after it', () => {
    for (const kind of Object.keys(KIND))
      expect(
        calls.some((c) => c.entrypoint === kind),
        kind,
      ).to.equal(true);
    // The stakers' events; the farm's own (an early withdrawal's fee staked in its name) are checked below.
    const userEvents = events.filter((e) => e.sender !== farm.address);
    expect(userEvents.map((e) => [e.tx_hash, e.event_type, e.pool])).to.deep.equal(
      calls.map((c) => [c.hash, KIND[c.entrypoint!], `${farm.address}_${fidOf(c)}`]),
    );
    const feesStaked: string[][] = [];
    let fees = 0;
    calls.forEach((c, i) => {
      const e = userEvents[i];
      const f = farmAfter(c);
      // Rewards left: the rate (×10^18) over the time left to end_time from the last update.
      const from = f.upd > f.start ? f.upd : f.start;
      const left = f.end > from ? f.end - from : 0n;
      expect([e.stake_supply, e.reward_supply, e.sender], c.hash).to.deep.equal([
        String(f.staked),
        String((left * f.rate) / P),
        c.sender,
      ]);
      const who = c.sender!;
      const toUser = transferred(ops, c.hash, f.reward, farm.address, who).reduce((n, v) => n + v, 0n);
      // deposit {fid, amt, …} | withdraw {fid, amt, …}: amt is the second int of the parameter.
      const amt = c.entrypoint === 'deposit' || c.entrypoint === 'withdraw' ? leadingInts(c.parameters, 2)[1] : 0n;
      if (c.entrypoint === 'add_new_farm') {
        expect(e.reward, c.hash).to.equal(String(transferred(ops, c.hash, f.reward, who, farm.address)[0]));
      } else if (c.entrypoint === 'withdraw') {
        const back = transferred(ops, c.hash, f.stake, farm.address, who)[0];
        // Stake and reward in one token: the first transfer to the staker is the stake paid back.
        const reward = f.stake === f.reward ? toUser - back : toUser;
        expect([e.volume, e.fee, e.reward], c.hash).to.deep.equal([String(amt), String(amt - back), String(reward)]);
        // The early-withdrawal fee is the farm's withdrawal_fee share of the amount (10^18 precision).
        expect(amt - back, c.hash).to.be.oneOf([0n, (amt * f.withdrawalFee) / P]);
        if (amt > back) fees++;
        // The fee stays staked in the farm's own users_info entry (t_farm_lambdas.ligo `withdraw`).
        const self = diffs(c, farm.state.usersInfo).find((d) => JSON.stringify(d.key).includes(`"${farm.address}"`));
        if (amt > back)
          feesStaked.push([c.hash, 'deposit', String(amt - back), String(f.staked), self ? 'written' : 'unwritten']);
      } else {
        const stakeIn = c.entrypoint === 'deposit' ? transferred(ops, c.hash, f.stake, who, farm.address)[0] : 0n;
        expect([e.volume, e.reward], c.hash).to.deep.equal([String(stakeIn), String(toUser)]);
        if (c.entrypoint === 'deposit') expect(stakeIn, c.hash).to.equal(amt);
      }
    });
    expect(fees, 'withdrawals inside the timelock paid a fee').to.be.greaterThan(0);
    const farmEvents = events.filter((e) => e.sender === farm.address);
    expect(farmEvents.map((e) => [e.tx_hash, e.event_type, e.volume, e.stake_supply, 'written'])).to.deep.equal(
      feesStaked,
    );
    expect(
      events.some((e) => e.event_type !== 'update' && e.reward !== '0'),
      'rewards paid',
    ).to.equal(true);
  });

  it('the farm rows hold the latest storage entry: stake, rewards left and the period', async () => {
    const last = new Map<bigint, RawFarm>();
    for (const c of calls) last.set(fidOf(c), farmAfter(c));
    const rows = await readTable(
      t,
      'farm_pool',
      ['pool', 'total_stake', 'remaining_rewards', 'start_time', 'end_time', 'entity', 'stake_token', 'reward_token'],
      `contract=${farm.address}`,
    );
    expect(rows.map((r) => r.pool).sort()).to.deep.equal(
      [...last.keys()].map((fid) => `${farm.address}_${fid}`).sort(),
    );
    for (const r of rows) {
      const f = last.get(BigInt(r.pool.split('_')[1]))!;
      const from = f.upd > f.start ? f.upd : f.start;
      const iso = (s: bigint) => new Date(Number(s) * 1000).toISOString();
      expect(
        [
          r.total_stake,
          r.remaining_rewards,
          new Date(r.start_time).toISOString(),
          new Date(r.end_time).toISOString(),
          r.entity,
          r.stake_token,
          r.reward_token,
        ],
        r.pool,
      ).to.deep.equal([
        String(f.staked),
        String(((f.end > from ? f.end - from : 0n) * f.rate) / P),
        iso(f.start),
        iso(f.end),
        'quipu_tfarm',
        `${f.stake}_0`,
        `${f.reward}_0`,
      ]);
    }
  });

  it("positions hold the staker's stake and the pending rewards of the contract's formula at head", async () => {
    // The latest raw farm and user entries at head.
    const farms = new Map<bigint, RawFarm>();
    const users = new Map<string, ReturnType<typeof rawUser>>();
    for (const o of ops) {
      if (o.receiver !== farm.address || !o.isSuccess) continue;
      for (const d of diffs(o, farm.state.farms)) farms.set(leadingInts(d.key, 1)[0], rawFarm(d.value));
      for (const d of diffs(o, farm.state.usersInfo)) {
        const fid = leadingInts(d.key, 1)[0];
        const owner = JSON.stringify(d.key).match(/"string":"([^"]+)"/)![1];
        users.set(`${farm.address}_${fid}:${owner}`, rawUser(d.value));
      }
    }
    const positions = await withApiColumns(
      t,
      '/v1/farm/positions',
      await readTable(t, 'farm_position', POSITION_COLUMNS, `contract=${farm.address}`),
      ['rewards_pending'],
    );
    expect(positions.length).to.be.greaterThan(2);
    let closed = 0;
    for (const p of positions) {
      const u = users.get(`${p.pool}:${p.owner}`)!;
      const f = farms.get(BigInt(p.pool.split('_')[1]))!;
      // earned + staked·reward_per_share − prev_earned, in 10^18 precision.
      const pending = (u.earned + u.staked * f.rps - u.prevEarned) / P;
      const mine = events.filter((e) => e.pool === p.pool && e.sender === p.owner);
      const sum = (kind: string, col: string) =>
        mine.filter((e) => kind === '*' || e.event_type === kind).reduce((n, e) => n + BigInt(e[col]), 0n);
      expect(
        [p.stake_balance, p.rewards_pending, p.stake_deposited, p.stake_withdrawn, p.rewards_claimed],
        `${p.pool} ${p.owner}`,
      ).to.deep.equal(
        [u.staked, pending, sum('deposit', 'volume'), sum('withdraw', 'volume'), sum('*', 'reward')].map(String),
      );
      // Closed: all stake and rewards withdrawn.
      expect(p.is_closed === 'true', p.owner).to.equal(u.staked === 0n && pending === 0n);
      // A call writes the caller's position only (not every staker's): the row last changed at the owner's own latest
      // call.
      expect(p.update_height, `${p.pool} ${p.owner} written`).to.equal(
        String(Math.max(...mine.map((e) => Number(e.height)))),
      );
      if (p.is_closed === 'true') closed++;
    }
    expect(closed, 'closed positions').to.be.greaterThan(0);
    expect(
      positions.some((p) => p.stake_balance !== '0'),
      'stakers, whose pending follows the farm',
    ).to.equal(true);
  });
});
