import {
  bigOrZero,
  type Entity,
  type IndexContext,
  type NormalizedBlock,
  asRecords,
  asString,
  isRecord,
  member,
  asDate,
} from '../../framework';
import { picksSnapshot, snapshotEra, snapshotIndexAt, snapshotKey, type SnapshotEra } from './SnapshotEra';
import { SnapshotSelection } from './SnapshotSelection';

/** What a snapshot row needs of an account row. */
interface AccountState {
  row_id: bigint;
  address: string;
  baker_id: bigint | null;
  baker: string | null;
  is_baker: boolean;
  spendable_balance: bigint;
  staked_balance: bigint | null;
  unstaked_balance: bigint;
  frozen_rewards: bigint;
  stake_shares: bigint;
  delegated_since: number | null;
  delegated_since_time: Date | null;
  first_seen: number;
  first_seen_time: Date;
}

const COLUMNS = [
  'row_id',
  'address',
  'baker_id',
  'baker',
  'is_baker',
  'spendable_balance',
  'staked_balance',
  'unstaked_balance',
  'frozen_rewards',
  'stake_shares',
  'delegated_since',
  'delegated_since_time',
  'first_seen',
  'first_seen_time',
] as const;

/**
 * The stake snapshots. One row per registered baker (own full balance = spendable + own stake + own
 * unstake requests (+ Emmy's frozen rewards); own stake; delegated = its delegators' spendable and
 * unstaked tez; delegators; stakers holding shares of its pool; baking power, grace period, consensus
 * key and staking parameters from the node) and one per account delegating to one, from core-chain's
 * account state as of the block (committed rows and the batch's pending changes).
 * From Paris on a snapshot is taken at each cycle's last block and counts (`is_selected`). Before, one
 * is taken every `blocks_per_roll_snapshot` / `blocks_per_stake_snapshot` blocks (`index` in the
 * cycle) and the one the node says was picked is marked at a later cycle end (SnapshotSelection).
 * Runs without protocol constants (archives) get no rows.
 */
export class SnapshotWriter {
  /** How each protocol takes snapshots (constants come on each run's first block and where the protocol changes). */
  private readonly eras = new Map<string, SnapshotEra>();
  private readonly selection = new SnapshotSelection();

  async write(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    if (block.constants) {
      const era = snapshotEra(block.constants);
      if (era) this.eras.set(block.protocol, era);
      else this.eras.delete(block.protocol);
    }
    const era = this.eras.get(block.protocol);
    const index = era && snapshotIndexAt(era, block.cyclePosition);
    if (!era || index === undefined) return;
    await this.take(block, ctx, era, index);
    if (picksSnapshot(era) && block.cyclePosition === era.cycleLength - 1)
      await this.selection.pick(ctx, era, block.cycle);
  }

  private async take(block: NormalizedBlock, ctx: IndexContext, era: SnapshotEra, index: number): Promise<void> {
    const accounts = await this.accounts(ctx);
    const bakers = [...accounts.values()].filter((a) => a.is_baker);
    const delegators = new Map<string, AccountState[]>();
    const stakers = new Map<string, number>();
    for (const a of accounts.values()) {
      if (a.is_baker || a.baker === null || a.baker === a.address) continue;
      if (a.stake_shares > 0n) stakers.set(a.baker, (stakers.get(a.baker) ?? 0) + 1);
      // Empty accounts add no stake: only delegators holding tez get a row.
      if (heldByDelegator(a) === 0n) continue;
      delegators.set(a.baker, [...(delegators.get(a.baker) ?? []), a]);
    }
    const key = (address: string) => snapshotKey(era, block.cycle, index, address);
    const rows = ctx.entities('snapshot', 'row_key');
    await rows.preload([...bakers, ...[...delegators.values()].flat()].map((a) => key(a.address)));
    const at = {
      height: block.level,
      cycle: block.cycle,
      is_selected: !picksSnapshot(era),
      time: new Date(block.time),
      index,
      rolls: 0,
    };
    for (const baker of bakers.sort((x, y) => (x.address < y.address ? -1 : 1))) {
      const answer = await ctx.node(`context/delegates/${baker.address}`);
      const info = isRecord(answer) ? answer : undefined;
      if (info?.deactivated === true) continue;
      // In address order: row ids must not depend on which rows a batch still holds in memory.
      const mine = (delegators.get(baker.address) ?? []).sort((x, y) => (x.address < y.address ? -1 : 1));
      const balance =
        baker.spendable_balance + (baker.staked_balance ?? 0n) + baker.unstaked_balance + baker.frozen_rewards;
      const delegated = mine.reduce((n, d) => n + heldByDelegator(d), 0n);
      await put(rows, key(baker.address), {
        ...at,
        ...party(baker, baker.row_id, baker.address),
        ...stakeCounted(era, info, balance + delegated),
        is_baker: true,
        is_active: true,
        balance,
        delegated,
        own_stake: baker.staked_balance ?? 0n,
        staking_balance: balance + delegated,
        n_delegations: mine.length,
        n_stakers: stakers.get(baker.address) ?? 0,
        ...delegateParameters(info),
      });
      for (const d of mine) {
        await put(rows, key(d.address), {
          ...at,
          ...party(d, baker.row_id, baker.address),
          is_baker: false,
          is_active: false,
          active_stake: null,
          balance: heldByDelegator(d),
          delegated: 0n,
          own_stake: null,
          staking_balance: null,
          n_delegations: 0,
          n_stakers: null,
          ...delegateParameters(undefined),
        });
      }
    }
  }

  /** A baker's income columns from the snapshot behind its rights in `cycle`; undefined when there is none. */
  async incomeColumns(
    ctx: IndexContext,
    protocol: string,
    cycle: number,
    address: string,
  ): Promise<Record<string, unknown> | undefined> {
    const key = await this.keyBehind(ctx, protocol, cycle, address);
    const row = key === undefined ? undefined : await ctx.entities('snapshot', 'row_key').get(key);
    if (row?.is_baker !== true) return undefined;
    const staking = bigOrZero(row.balance) + bigOrZero(row.delegated);
    return {
      rolls: row.rolls,
      balance: row.balance,
      delegated: row.delegated,
      staking_balance: staking,
      own_stake: row.own_stake,
      active_stake: row.active_stake,
      n_delegations: row.n_delegations,
      n_stakers: row.n_stakers,
    };
  }

  /** Loads the snapshot rows behind many bakers' rights in `cycle` in one query (before incomeColumns of each). */
  async preloadIncomeColumns(
    ctx: IndexContext,
    protocol: string,
    cycle: number,
    addresses: readonly string[],
  ): Promise<void> {
    const keys: string[] = [];
    for (const a of addresses) {
      const key = await this.keyBehind(ctx, protocol, cycle, a);
      if (key !== undefined) keys.push(key);
    }
    await ctx.entities('snapshot', 'row_key').preload(keys);
  }

  /**
   * The baking power of all bakers in the snapshot behind `cycle`'s rights (committed rows and the
   * batch's own); undefined when there is no snapshot or the node did not give every baker's power.
   */
  async totalActiveStake(ctx: IndexContext, protocol: string, cycle: number): Promise<bigint | undefined> {
    const lag = this.eras.get(protocol)?.lag;
    if (lag === undefined) return undefined;
    const snapshot = cycle - lag;
    const power = new Map<string, unknown>();
    for (const r of await ctx
      .read('snapshot')
      .where({ cycle: snapshot, is_baker: true, is_selected: true })
      .select('row_key', 'active_stake'))
      power.set(String(r.row_key), r.active_stake);
    for (const e of ctx.entities('snapshot', 'row_key').pending())
      if (Number(e.cycle) === snapshot && e.is_baker === true && e.is_selected === true)
        power.set(String(e.row_key), e.active_stake);
    const values = [...power.values()];
    if (values.length === 0 || values.some((v) => v === null || v === undefined)) return undefined;
    return values.reduce<bigint>((n, v) => n + bigOrZero(v), 0n);
  }

  /** Row key of a baker's row in the (selected) snapshot behind its rights in `cycle`; undefined when none is known. */
  private async keyBehind(
    ctx: IndexContext,
    protocol: string,
    cycle: number,
    address: string,
  ): Promise<string | undefined> {
    const era = this.eras.get(protocol);
    if (!era) return undefined;
    const base = cycle - era.lag;
    const index = picksSnapshot(era) ? await this.selection.selectedIndex(ctx, base) : 0;
    return index === null ? undefined : snapshotKey(era, base, index, address);
  }

  /** Bakers and delegating accounts: the committed rows, overlaid with what this batch changed. */
  private async accounts(ctx: IndexContext): Promise<Map<string, AccountState>> {
    const out = new Map<string, AccountState>();
    const committed = asRecords(
      await ctx
        .read('account')
        .select(...COLUMNS)
        .where((w) => w.where('is_baker', true).orWhereNotNull('baker_id')),
    );
    for (const raw of committed) out.set(String(raw.address), state(raw));
    for (const e of ctx.entities('account', 'address').pending()) {
      const a = state(e);
      if (a.is_baker || a.baker_id !== null) out.set(a.address, a);
      else out.delete(a.address);
    }
    return out;
  }
}

/**
 * Rolls and the stake counted for rights: Emmy's rolls of the staking balance (the node's, else the
 * indexed one) and their tez; later the node's baking power (Paris+ nodes; null without one).
 */
function stakeCounted(
  era: SnapshotEra,
  info: Record<string, unknown> | undefined,
  indexedStaking: bigint,
): { rolls: bigint; active_stake: bigint | null } {
  if (era.tokensPerRoll) {
    const staking = info?.staking_balance === undefined ? indexedStaking : bigOrZero(info.staking_balance);
    const rolls = staking / era.tokensPerRoll;
    return { rolls, active_stake: rolls * era.tokensPerRoll };
  }
  const power = info?.baking_power ?? info?.current_baking_power;
  return { rolls: 0n, active_stake: typeof power === 'string' || typeof power === 'number' ? BigInt(power) : null };
}

/** What the node tells of a baker's state and parameters at the snapshot (null where its era has no such field). */
function delegateParameters(info: Record<string, unknown> | undefined): Record<string, unknown> {
  const key = member(info?.consensus_key, 'active');
  const params = info?.active_staking_parameters;
  const int = (v: unknown): number | null => (typeof v === 'number' || typeof v === 'string' ? Number(v) : null);
  return {
    grace_period: int(info?.grace_period),
    consensus_key: asString(member(key, 'pk')) ?? null,
    consensus_address: asString(member(key, 'pkh')) ?? null,
    staking_limit: int(member(params, 'limit_of_staking_over_baking_millionth')),
    staking_edge: int(member(params, 'edge_of_baking_over_staking_billionth')),
  };
}

/** A delegator's tez counted as delegated: spendable and unstake requests (its staked tez count as staked). */
const heldByDelegator = (a: AccountState): bigint => a.spendable_balance + a.unstaked_balance;

function party(a: AccountState, bakerId: bigint, baker: string): Record<string, unknown> {
  return {
    account_id: a.row_id,
    address: a.address,
    baker_id: bakerId,
    baker,
    since: a.delegated_since ?? a.first_seen,
    since_time: a.delegated_since_time ?? a.first_seen_time,
  };
}

async function put(
  rows: ReturnType<IndexContext['entities']>,
  key: string,
  row: Record<string, unknown>,
): Promise<void> {
  const hit = await rows.get(key);
  if (hit) rows.update(hit, row);
  else rows.insert({ row_key: key, ...row });
}

function state(r: Record<string, unknown> | Entity): AccountState {
  return {
    row_id: bigOrZero(r.row_id),
    address: String(r.address),
    baker_id: r.baker_id === null || r.baker_id === undefined ? null : bigOrZero(r.baker_id),
    baker: r.baker === null || r.baker === undefined ? null : String(r.baker),
    is_baker: r.is_baker === true,
    spendable_balance: bigOrZero(r.spendable_balance),
    staked_balance: r.staked_balance === null || r.staked_balance === undefined ? null : bigOrZero(r.staked_balance),
    unstaked_balance: bigOrZero(r.unstaked_balance),
    frozen_rewards: bigOrZero(r.frozen_rewards),
    stake_shares: bigOrZero(r.stake_shares),
    delegated_since: r.delegated_since === null || r.delegated_since === undefined ? null : Number(r.delegated_since),
    delegated_since_time:
      r.delegated_since_time === null || r.delegated_since_time === undefined ? null : asDate(r.delegated_since_time),
    first_seen: Number(r.first_seen),
    first_seen_time: asDate(r.first_seen_time),
  };
}
