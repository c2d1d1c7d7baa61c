import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import { ContractTypes } from '../../framework/michelson/ContractTypes';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { PLENTY_FARM_TYPES } from '../../plugins/defi-farm/adapters/plenty/types';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { indexBlocks } from '../support/IndexHarness';
import { readFixtureJson } from '../support/fixtures';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/*
 * Plenty farms in three full mainnet blocks, indexed by the whole indexer (core-chain and defi-farm) with no
 * node: block 1588744 holds a `GetReward`; 1621538 an applied `unstake` (USDtz farm) and a `stake` skipped
 * after its approve failed; 1676122 five `GetReward` calls of one account on five farms (one of them the
 * farm claimed from in 1588744). The oracle is the raw block JSON alone:
 * the FA1.2 transfers each farm made (its internal operations' parameters), the call's argument, the
 * storage after the call read by position (the farm's record: pytezos usdt_e_usdc_e_farm/__script__.json),
 * and the caller's `balances` entry in the call's big map diff.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const LEVELS = [1588744, 1621538, 1676122];
const FARM_CALLS = ['stake', 'unstake', 'GetReward', 'AddReward'];
const rawBlock = (level: number): Json =>
  readFixtureJson('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'mainnet', `mainnet-${level}.json`);
const address = (v: Json): string => v.string ?? encodeAddress(v.bytes);
const int = (v: Json): bigint => BigInt(v.int);

interface RawFarmCall {
  level: number;
  hash: string;
  farm: string;
  caller: string;
  entrypoint: string;
  status: string;
  parameters: Json;
  storage: Json;
  diffs: Json[];
  /** The FA1.2 transfers the farm ordered (token contract, from, to, value). */
  paid: Array<{ token: string; from: string; to: string; value: bigint }>;
}

/** Every call of a farm entrypoint in the blocks' manager groups, applied or not. */
function rawCalls(): RawFarmCall[] {
  return LEVELS.flatMap((level) =>
    rawBlock(level)
      .operations[3].flatMap((g: Json) => g.contents.map((c: Json) => ({ g, c })))
      .filter(({ c }: Json) => FARM_CALLS.includes(c.parameters?.entrypoint))
      .map(({ g, c }: Json) => {
        const r = c.metadata.operation_result;
        const internals: Json[] = c.metadata.internal_operation_results ?? [];
        const paid = internals
          .filter((o) => o.source === c.destination && o.parameters?.entrypoint === 'transfer')
          .map((o) => {
            const [from, rest] = o.parameters.value.args;
            return { token: o.destination, from: address(from), to: address(rest.args[0]), value: int(rest.args[1]) };
          });
        const [hash, farm, caller, entrypoint] = [g.hash, c.destination, c.source, c.parameters.entrypoint];
        const diffs = r.lazy_storage_diff ?? [];
        const [status, parameters, storage] = [r.status, c.parameters.value, r.storage];
        return { level, hash, farm, caller, entrypoint, status, parameters, storage, diffs, paid };
      }),
  );
}

/** The farm's figures in the raw storage after a call, by position in its record. */
function farmNumbers(storage: Json) {
  const [head, schedule, tokens, totalSupply] = storage;
  const [[admin, balancesAndCycle], [, faTwo], lastUpdate] = [head[0].args, head[1].args, head[2]];
  const [[periodFinish], [rate, rewardToken]] = [schedule.args[0].args, schedule.args[1].args];
  return {
    admin: address(admin),
    balances: balancesAndCycle.args[0].int as string,
    faTwoToken: faTwo.prim === 'True',
    lastUpdate: int(lastUpdate),
    periodFinish: int(periodFinish),
    rate: int(rate),
    rewardToken: address(rewardToken),
    stakeToken: address(tokens.args[0]),
    totalSupply: int(totalSupply),
  };
}

/** The caller's `balances` entry the call wrote: its lots (id → raw amount), scaled balance and rewards. */
function entryOf(call: RawFarmCall) {
  const { balances } = farmNumbers(call.storage);
  const diff = call.diffs.find((d: Json) => d.kind === 'big_map' && d.id === balances);
  const u = diff.diff.updates.find((x: Json) => address(x.key) === call.caller);
  const [lotsAndBalance, counter, rewards] = u.value;
  const lots = new Map<bigint, bigint>(
    lotsAndBalance.args[0].map((e: Json) => [int(e.args[0]), int(e.args[1].args[0])]),
  );
  const staked = [...lots.values()].reduce((a, b) => a + b, 0n);
  return { lots, staked, balance: int(lotsAndBalance.args[1]), counter: int(counter), rewards: int(rewards) };
}

/** What the farm moved to `to` of `token`. */
const paidOf = (c: RawFarmCall, token: string, to = c.caller) =>
  c.paid.filter((p) => p.token === token && p.from === c.farm && p.to === to).reduce((n, p) => n + p.value, 0n);

describe(`defi-farm: Plenty farms on real mainnet blocks, indexed with no node (${BACKEND})`, function () {
  this.timeout(300_000);
  const calls = rawCalls();
  const applied = calls.filter((c) => c.status === 'applied');
  let t: TestInstance;
  let events: CsvRow[];
  let positions: CsvRow[];
  let farms: CsvRow[];

  before(async () => {
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
      ['core-chain', 'defi-farm'].includes(p.manifest.name),
    );
    t = await startTestInstance({ plugins });
    await indexBlocks(
      t,
      LEVELS.map((l) => rawBlock(l) as RawBlock),
    );
    const sides = ['sender', 'receiver', 'tx_hash'];
    const amounts = ['volume', 'reward', 'fee', 'stake_id', 'stake_supply', 'reward_supply'];
    events = await readTable(t, 'farm_event', ['pool', 'height', 'event_type', ...amounts, ...sides]);
    const stakes = ['stake_balance', 'rewards_claimed', 'rewards_pending', 'is_closed'];
    positions = await readTable(t, 'farm_position', ['pool', 'owner', ...stakes]);
    const totals = ['total_stake', 'remaining_rewards'];
    farms = await readTable(t, 'farm_pool', ['pool', 'entity', 'stake_token', 'reward_token', ...totals]);
  });
  after(async () => t?.close());

  it("ships the real farm types: the recorded script's, whose storage type fits every farm of the blocks", () => {
    const script = readFixtureJson<Json>('defi', 'pytezos', 'usdt_e_usdc_e_farm', '__script__.json');
    // As JSON (the parser leaves `undefined` members that JSON, like the RPC, does not have).
    const json = (types: ContractTypes) => JSON.parse(JSON.stringify(types.toJSON()));
    expect(json(PLENTY_FARM_TYPES)).to.deep.equal(json(ContractTypes.fromScript(script)!));
    for (const c of applied) {
      expect(() => PLENTY_FARM_TYPES.storage(c.storage, { strict: true }), c.farm).to.not.throw();
    }
  });

  it('finds one event per applied farm call, none for the skipped stake', () => {
    // Premises from the raw JSON: an unstake and six GetReward applied, one stake skipped.
    expect(calls.map((c) => [c.level, c.entrypoint, c.status])).to.deep.equal([
      [1588744, 'GetReward', 'applied'],
      [1621538, 'stake', 'skipped'],
      [1621538, 'unstake', 'applied'],
      ...Array(5).fill([1676122, 'GetReward', 'applied']),
    ]);
    const expected = applied.map((c) => [String(c.level), c.hash, `${c.farm}_0`]);
    expect(events.map((e) => [e.height, e.tx_hash, e.pool])).to.deep.equal(expected);
  });

  it('reads amounts from what the farm moved: stake paid back less the fee it kept, rewards claimed', () => {
    applied.forEach((c, i) => {
      const n = farmNumbers(c.storage);
      const e = events[i];
      const reward = paidOf(c, n.rewardToken);
      if (c.entrypoint === 'unstake') {
        const [amount, lot] = c.parameters.args.map(int);
        // The lot named is gone from the entry after the call: the whole amount left the stake.
        expect(entryOf(c).lots.has(lot)).to.equal(false);
        const back = paidOf(c, n.stakeToken);
        expect(back > 0n && back < amount, 'a fee was kept').to.equal(true);
        const got = [e.event_type, e.volume, e.fee, e.reward, e.stake_id];
        const want = ['withdraw', String(amount), String(amount - back), String(reward), String(lot)];
        expect(got, c.hash).to.deep.equal(want);
      } else {
        expect(reward > 0n, c.farm).to.equal(true);
        expect([e.event_type, e.volume, e.fee, e.reward], c.farm).to.deep.equal(['claim', '0', '0', String(reward)]);
      }
      expect([e.sender, e.receiver], c.hash).to.deep.equal([c.caller, c.caller]);
    });
  });

  it("takes the farm's totals and the owner's stake from the storage and entry after each call", () => {
    // The tables hold each farm and position as its last call left them.
    const last = (c: RawFarmCall, same: (x: RawFarmCall) => boolean) => applied.filter(same).pop() === c;
    expect(new Set(applied.map((c) => c.farm)).size, 'a farm called twice').to.equal(applied.length - 1);
    applied.forEach((c, i) => {
      const n = farmNumbers(c.storage);
      const entry = entryOf(c);
      // The contract keeps balances and totalSupply scaled; the lots hold raw amounts: their ratio is the scale.
      expect(entry.balance % entry.staked, c.farm).to.equal(0n);
      const scale = entry.balance / entry.staked;
      expect(n.totalSupply % scale, c.farm).to.equal(0n);
      const left = n.periodFinish > n.lastUpdate ? n.rate * (n.periodFinish - n.lastUpdate) : 0n;
      const supplies = [events[i].stake_supply, events[i].reward_supply];
      expect(supplies, c.farm).to.deep.equal([String(n.totalSupply / scale), String(left)]);
      expect(n.faTwoToken).to.equal(false);
      if (last(c, (x) => x.farm === c.farm)) {
        const farm = farms.find((f) => f.pool === `${c.farm}_0`)!;
        const row = [farm.entity, farm.stake_token, farm.reward_token, farm.total_stake, farm.remaining_rewards];
        const tokens = [`${n.stakeToken}_0`, `${n.rewardToken}_0`];
        expect(row, c.farm).to.deep.equal(['plenty', ...tokens, String(n.totalSupply / scale), String(left)]);
      }
      // Each owner calls each farm once here: its position is this call's entry, its claims this call's payout.
      expect(applied.filter((x) => x.farm === c.farm && x.caller === c.caller)).to.have.length(1);
      const p = positions.find((x) => x.pool === `${c.farm}_0` && x.owner === c.caller)!;
      const got = [p.stake_balance, p.rewards_claimed, p.rewards_pending, p.is_closed];
      const open = entry.staked + entry.rewards > 0n ? 'false' : 'true';
      const claimed = paidOf(c, n.rewardToken);
      expect(got, c.farm).to.deep.equal([String(entry.staked), String(claimed), String(entry.rewards), open]);
    });
  });
});
