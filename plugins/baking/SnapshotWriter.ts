import type { Entity, IndexContext, NormalizedBlock } from '../../framework';

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
  stake_shares: bigint;
  delegated_since: number | null;
  delegated_since_time: Date | null;
  first_seen: number;
  first_seen_time: Date;
}

const COLUMNS = ['row_id', 'address', 'baker_id', 'baker', 'is_baker', 'spendable_balance', 'staked_balance', 'unstaked_balance', 'stake_shares', 'delegated_since', 'delegated_since_time', 'first_seen', 'first_seen_time'] as const;

/**
 * The stake snapshot of a cycle, written at its last block: from Paris on, the rights of a later
 * cycle are drawn from the stake at a cycle's end. One row per registered baker (own full balance =
 * spendable + own stake + own unstake requests; own stake; delegated = its delegators' spendable and
 * unstaked tez; delegators; stakers holding shares of its pool; baking power, grace period, consensus
 * key and staking parameters from the node) and one per account delegating to one, from
 * core-chain's account state as of the block (committed rows and the batch's pending changes).
 * Eras that picked one of several in-cycle snapshots (before Paris) and runs without protocol
 * constants (archives) get no rows: which snapshot counted is not in the receipts.
 */
export class SnapshotWriter {
  /** Cycle length by protocol, 0 for eras with in-cycle snapshots (constants come on each run's first block). */
  private readonly cycleLength = new Map<string, number>();
  /** Cycles between a snapshot and the cycle whose rights it gives, by protocol. */
  private readonly lag = new Map<string, number>();

  async write(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    if (block.constants) {
      this.cycleLength.set(block.protocol, cycleEndLength(block.constants));
      const delay = block.constants.consensus_rights_delay ?? block.constants.preserved_cycles;
      if (delay !== undefined) this.lag.set(block.protocol, Number(delay) + 1);
    }
    const length = this.cycleLength.get(block.protocol) ?? 0;
    if (length === 0 || block.cyclePosition !== length - 1) return;
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
    const rows = ctx.entities('snapshot', 'row_key');
    await rows.preload([...bakers, ...[...delegators.values()].flat()].map((a) => `${block.cycle}_${a.address}`));
    const at = { height: block.level, cycle: block.cycle, is_selected: true, time: new Date(block.time), index: 0, rolls: 0 };
    for (const baker of bakers.sort((x, y) => (x.address < y.address ? -1 : 1))) {
      const info = (await ctx.node(`context/delegates/${baker.address}`)) as Record<string, unknown> | undefined;
      if (info?.deactivated === true) continue;
      // In address order: row ids must not depend on which rows a batch still holds in memory.
      const mine = (delegators.get(baker.address) ?? []).sort((x, y) => (x.address < y.address ? -1 : 1));
      const power = info?.baking_power ?? info?.current_baking_power;
      await put(rows, `${block.cycle}_${baker.address}`, {
        ...at,
        ...party(baker, baker.row_id, baker.address),
        is_baker: true,
        is_active: info === undefined ? null : true,
        active_stake: typeof power === 'string' || typeof power === 'number' ? BigInt(power) : null,
        balance: baker.spendable_balance + (baker.staked_balance ?? 0n) + baker.unstaked_balance,
        delegated: mine.reduce((n, d) => n + heldByDelegator(d), 0n),
        own_stake: baker.staked_balance ?? 0n,
        n_delegations: mine.length,
        n_stakers: stakers.get(baker.address) ?? 0,
        ...delegateParameters(info),
      });
      for (const d of mine) {
        await put(rows, `${block.cycle}_${d.address}`, { ...at, ...party(d, baker.row_id, baker.address), is_baker: false, is_active: null, active_stake: null, balance: heldByDelegator(d), delegated: 0n, own_stake: null, n_delegations: 0, n_stakers: null, ...delegateParameters(undefined) });
      }
    }
  }

  /** A baker's income columns from the snapshot behind its rights in `cycle`; undefined when there is none. */
  async incomeColumns(ctx: IndexContext, protocol: string, cycle: number, address: string): Promise<Record<string, unknown> | undefined> {
    const lag = this.lag.get(protocol);
    if (lag === undefined || (this.cycleLength.get(protocol) ?? 0) === 0) return undefined;
    const row = await ctx.entities('snapshot', 'row_key').get(`${cycle - lag}_${address}`);
    if (row?.is_baker !== true) return undefined;
    const staking = big(row.balance) + big(row.delegated);
    return { rolls: 0, balance: row.balance, delegated: row.delegated, staking_balance: staking, own_stake: row.own_stake, active_stake: row.active_stake, n_delegations: row.n_delegations, n_stakers: row.n_stakers };
  }

  /** Loads the snapshot rows behind many bakers' rights in `cycle` in one query (before incomeColumns of each). */
  async preloadIncomeColumns(ctx: IndexContext, protocol: string, cycle: number, addresses: readonly string[]): Promise<void> {
    const lag = this.lag.get(protocol);
    if (lag === undefined || (this.cycleLength.get(protocol) ?? 0) === 0) return;
    await ctx.entities('snapshot', 'row_key').preload(addresses.map((a) => `${cycle - lag}_${a}`));
  }

  /**
   * The baking power of all bakers in the snapshot behind `cycle`'s rights (committed rows and the
   * batch's own); undefined when there is no snapshot or the node did not give every baker's power.
   */
  async totalActiveStake(ctx: IndexContext, protocol: string, cycle: number): Promise<bigint | undefined> {
    const lag = this.lag.get(protocol);
    if (lag === undefined || (this.cycleLength.get(protocol) ?? 0) === 0) return undefined;
    const snapshot = cycle - lag;
    const power = new Map<string, unknown>();
    for (const r of await ctx.read('snapshot').where({ cycle: snapshot, is_baker: true }).select('row_key', 'active_stake')) power.set(String(r.row_key), r.active_stake);
    for (const e of ctx.entities('snapshot', 'row_key').pending()) if (Number(e.cycle) === snapshot && e.is_baker === true) power.set(String(e.row_key), e.active_stake);
    const values = [...power.values()];
    if (values.length === 0 || values.some((v) => v === null || v === undefined)) return undefined;
    return values.reduce<bigint>((n, v) => n + big(v), 0n);
  }

  /** Bakers and delegating accounts: the committed rows, overlaid with what this batch changed. */
  private async accounts(ctx: IndexContext): Promise<Map<string, AccountState>> {
    const out = new Map<string, AccountState>();
    const committed = (await ctx.read('account').select(...COLUMNS).where((w) => w.where('is_baker', true).orWhereNotNull('baker_id'))) as Record<string, unknown>[];
    for (const raw of committed) out.set(String(raw.address), state(raw));
    for (const e of ctx.entities('account', 'address').pending()) {
      const a = state(e);
      if (a.is_baker || a.baker_id !== null) out.set(a.address, a);
      else out.delete(a.address);
    }
    return out;
  }
}

/** blocks_per_cycle when the protocol draws rights from the cycle-end stake, 0 when it picks an in-cycle snapshot. */
function cycleEndLength(constants: Readonly<Record<string, unknown>>): number {
  if ('blocks_per_stake_snapshot' in constants || 'blocks_per_roll_snapshot' in constants) return 0;
  return Number(constants.blocks_per_cycle ?? 0);
}

/** What the node tells of a baker's state and parameters at the snapshot (null where its era has no such field). */
function delegateParameters(info: Record<string, unknown> | undefined): Record<string, unknown> {
  const key = (info?.consensus_key as { active?: { pkh?: unknown; pk?: unknown } } | undefined)?.active;
  const params = info?.active_staking_parameters as Record<string, unknown> | undefined;
  const int = (v: unknown): number | null => (typeof v === 'number' || typeof v === 'string' ? Number(v) : null);
  return {
    grace_period: int(info?.grace_period),
    consensus_key: typeof key?.pk === 'string' ? key.pk : null,
    consensus_address: typeof key?.pkh === 'string' ? key.pkh : null,
    staking_limit: int(params?.limit_of_staking_over_baking_millionth),
    staking_edge: int(params?.edge_of_baking_over_staking_billionth),
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

async function put(rows: ReturnType<IndexContext['entities']>, key: string, row: Record<string, unknown>): Promise<void> {
  const hit = await rows.get(key);
  if (hit) rows.update(hit, row);
  else rows.insert({ row_key: key, ...row });
}

const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));

function state(r: Record<string, unknown> | Entity): AccountState {
  return {
    row_id: big(r.row_id),
    address: String(r.address),
    baker_id: r.baker_id === null || r.baker_id === undefined ? null : big(r.baker_id),
    baker: r.baker === null || r.baker === undefined ? null : String(r.baker),
    is_baker: r.is_baker === true,
    spendable_balance: big(r.spendable_balance),
    staked_balance: r.staked_balance === null || r.staked_balance === undefined ? null : big(r.staked_balance),
    unstaked_balance: big(r.unstaked_balance),
    stake_shares: big(r.stake_shares),
    delegated_since: r.delegated_since === null || r.delegated_since === undefined ? null : Number(r.delegated_since),
    delegated_since_time: r.delegated_since_time === null || r.delegated_since_time === undefined ? null : date(r.delegated_since_time),
    first_seen: Number(r.first_seen),
    first_seen_time: date(r.first_seen_time),
  };
}
