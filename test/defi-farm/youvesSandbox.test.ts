import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { youvesSavings } from '../../plugins/defi-farm/adapters/youves/sim/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { leadingInts } from '../defi-dex/support/poolCalls';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { withApiColumns } from '../support/apiColumns';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const P = 10n ** 12n;
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
  'close_height',
];
const KIND: Record<string, string> = { internal_deposit: 'deposit', internal_withdraw: 'withdraw' };

/**
 * The raw savings pool storage, read from the Micheline without the adapter's types: SmartPy's layout
 * keeps the fields in name order, so its ints are administrators (id), current_balance, disc_factor,
 * dist_factor, dist_factors (id), last_balance, stakes (id), token_id, total_stake,
 * vesting_duration_in_seconds, and its strings engine_address, sender, token_address, vesting_contract.
 */
function rawPool(storage: unknown) {
  const [, , disc, , , last, , , total] = leadingInts(storage, 10);
  const strings = JSON.stringify(storage)
    .match(/"string":"([^"]+)"/g)!
    .map((s) => s.slice(10, -1));
  return { disc, last, total, sender: strings[1], token: strings[2], vester: strings[3] };
}

/** FA1.2 transfers of `token` in the group of `hash` from `from` to `to`. */
function transferred(ops: NormalizedOperation[], hash: string, token: string, from: string, to: string): bigint {
  return ops
    .filter((o) => o.hash === hash && o.receiver === token && o.entrypoint === 'transfer')
    .map((o) => (o.parameters as { args: [{ string: string }, { args: [{ string: string }, { int: string }] }] }).args)
    .filter(([f, rest]) => f.string === from && rest.args[0].string === to)
    .reduce((n, [, rest]) => n + BigInt(rest.args[1].int), 0n);
}

describe(`defi-farm: the Youves savings pool on the sandbox chain (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'farm-youves', profile: 'tiny', traffic: ['defi-farm:youves'] });
  let t: TestInstance;
  let pool: ReturnType<typeof youvesSavings>;
  let ops: NormalizedOperation[];
  let calls: NormalizedOperation[];
  let events: CsvRow[];
  let positions: CsvRow[];

  before(async () => {
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
      ['core-chain', 'defi-farm'].includes(p.manifest.name),
    );
    t = await startTestInstance({ plugins });
    chain.bakeTo(120);
    await indexSandbox(t, chain);
    pool = youvesSavings(chain.contracts);
    ops = canonical(chain).flatMap((b) => b.operations);
    calls = ops.filter(
      (o) => o.receiver === pool.address && o.isSuccess && o.entrypoint !== undefined && o.entrypoint in KIND,
    );
    events = await readTable(t, 'farm_event', EVENT_COLUMNS, `contract=${pool.address}`);
    positions = await withApiColumns(
      t,
      '/v1/farm/positions',
      await readTable(t, 'farm_position', POSITION_COLUMNS, `contract=${pool.address}`),
      ['rewards_pending'],
    );
  });
  after(() => t?.close());

  it('records one event per internal deposit/withdraw with the moved amounts and the stake the storage values after it', () => {
    for (const kind of Object.keys(KIND))
      expect(
        calls.some((c) => c.entrypoint === kind),
        kind,
      ).to.equal(true);
    expect(events.map((e) => [e.tx_hash, e.event_type, e.pool])).to.deep.equal(
      calls.map((c) => [c.hash, KIND[c.entrypoint!], `${pool.address}_0`]),
    );
    // The principal of each saver, from the deposit parameters since its last withdrawal.
    const principal = new Map<string, bigint>();
    let rewarded = 0;
    calls.forEach((c, i) => {
      const e = events[i];
      const s = rawPool(c.storage);
      expect([e.reward_supply, e.sender, e.receiver], c.hash).to.deep.equal(['', s.sender, s.sender]);
      const before = principal.get(s.sender) ?? 0n;
      if (c.entrypoint === 'internal_deposit') {
        const amount = leadingInts(c.parameters, 1)[0];
        expect(transferred(ops, c.hash, s.token, s.sender, pool.address), c.hash).to.equal(amount);
        expect([e.volume, e.reward, e.fee], c.hash).to.deep.equal([String(amount), '0', '0']);
        principal.set(s.sender, before + amount);
      } else {
        // Everything is vested: the stake deposited back first, the growth as reward.
        const paid = transferred(ops, c.hash, s.token, pool.address, s.vester);
        const back = paid < before ? paid : before;
        expect([e.volume, e.reward, e.fee], c.hash).to.deep.equal([
          String(before),
          String(paid - back),
          String(before - back),
        ]);
        if (paid > before) rewarded++;
        principal.set(s.sender, 0n);
      }
      // The pool's stake: the principal the savers moved in and have not withdrawn (the growth is their reward).
      expect(e.stake_supply, c.hash).to.equal(String([...principal.values()].reduce((a, b) => a + b, 0n)));
    });
    expect(rewarded, 'withdrawals paid growth').to.be.greaterThan(0);
  });

  it('the farm row holds the last stake, its index from the storage, the token as stake and reward', async () => {
    const rows = await readTable(
      t,
      'farm_pool',
      ['pool', 'entity', 'total_stake', 'remaining_rewards', 'num_positions', 'stake_token', 'reward_token'],
      `contract=${pool.address}`,
    );
    const s = rawPool(calls[calls.length - 1].storage);
    const staked = positions.filter((p) => p.stake_balance !== '0').length;
    expect(
      rows.map((r) => [
        r.pool,
        r.entity,
        r.total_stake,
        r.remaining_rewards,
        r.num_positions,
        r.stake_token,
        r.reward_token,
      ]),
    ).to.deep.equal([
      [
        `${pool.address}_0`,
        'youves_savings',
        events[events.length - 1].stake_supply,
        '',
        String(staked),
        `${s.token}_0`,
        `${s.token}_0`,
      ],
    ]);
    // The model's own state at head agrees with the storage the indexer saw.
    expect([pool.state.totalStake, pool.state.discFactor]).to.deep.equal([s.total, s.disc]);
  });

  it("positions hold the principal, and pending rewards of the contract's formula over the raw storage at head", () => {
    const stakes = new Map<string, bigint>();
    for (const o of ops) {
      if (o.receiver !== pool.address || !o.isSuccess) continue;
      const id = Number(leadingInts(o.storage, 7)[6]);
      for (const d of o.bigMapDiffs) {
        if (d.bigMapId !== id || (d.action !== 'update' && d.action !== 'remove') || !d.key) continue;
        const owner = (d.key as { string: string }).string;
        stakes.set(owner, d.action === 'update' ? BigInt((d.value as { int: string }).int) : 0n);
      }
    }
    const disc = rawPool(calls[calls.length - 1].storage).disc;
    expect(positions.length).to.be.greaterThan(2);
    let closed = 0;
    let pendingSeen = 0;
    for (const p of positions) {
      const mine = events.filter((e) => e.sender === p.owner);
      const sum = (kind: string, col: string) =>
        mine.filter((e) => e.event_type === kind).reduce((n, e) => n + BigInt(e[col]), 0n);
      const principal = sum('deposit', 'volume') - sum('withdraw', 'volume');
      const shares = stakes.get(p.owner) ?? 0n;
      // The saver's value stakes[owner]·disc_factor/10^12 above its principal (0 when rounding keeps it below).
      const value = (shares * disc) / P;
      const pending = shares === 0n ? 0n : value > principal ? value - principal : 0n;
      expect(
        [p.stake_balance, p.stake_deposited, p.stake_withdrawn, p.rewards_claimed, p.rewards_pending],
        p.owner,
      ).to.deep.equal(
        [principal, sum('deposit', 'volume'), sum('withdraw', 'volume'), sum('withdraw', 'reward'), pending].map(
          String,
        ),
      );
      // Closed: the whole stake and its growth were withdrawn.
      expect(p.is_closed === 'true', p.owner).to.equal(shares === 0n);
      if (p.is_closed === 'true') closed++;
      if (pending > 0n) pendingSeen++;
    }
    expect(closed, 'closed positions').to.be.greaterThan(0);
    expect(pendingSeen, 'savers with growth pending').to.be.greaterThan(0);
  });

  it('answers a bad farm id with 400 JSON and an unknown one with 404', async () => {
    for (const [path, status] of [
      [`/v1/farm/${pool.address}_x`, 400],
      [`/v1/farm/${pool.address}_1`, 404],
    ] as const) {
      const res = await t.get(path);
      expect(res.status, path).to.equal(status);
      expect(res.headers.get('content-type') ?? '', path).to.match(/json/);
    }
    expect((await t.get(`/v1/farm/${pool.address}_0`)).status).to.equal(200);
  });
});
