import { bigOrZero, type Entity, type EntityStore } from '../../framework';
import { addressType, isImplicitType } from './addressType';
import { storedDate } from './storedDate';

const ONE_TEZ = 1_000_000n;

/** An account row as core-chain works with it during a block (the `account` table's columns). */
export interface AccountData {
  address: string;
  address_type: string;
  pubkey: string | null;
  counter: bigint;
  baker_id: bigint | null;
  creator_id: bigint | null;
  first_in: number | null;
  first_out: number | null;
  last_in: number | null;
  last_out: number | null;
  first_seen: number;
  last_seen: number;
  delegated_since: number | null;
  total_received: bigint;
  total_sent: bigint;
  total_burned: bigint;
  total_fees_paid: bigint;
  total_fees_used: bigint;
  unclaimed_balance: bigint;
  spendable_balance: bigint;
  frozen_bond: bigint;
  lost_bond: bigint;
  is_funded: boolean;
  is_activated: boolean;
  is_delegated: boolean;
  is_revealed: boolean;
  is_baker: boolean;
  is_contract: boolean;
  n_tx_success: number;
  n_tx_failed: number;
  n_tx_in: number;
  n_tx_out: number;
  baker: string | null;
  creator: string | null;
  first_seen_time: Date;
  last_seen_time: Date;
  first_in_time: Date | null;
  last_in_time: Date | null;
  first_out_time: Date | null;
  last_out_time: Date | null;
  delegated_since_time: Date | null;
  /** Own stake (bakers); stored as null for external stakers, whose tez are a share of their baker's pool. */
  staked_balance: bigint;
  unstaked_balance: bigint;
  lost_stake: bigint;
  frozen_rewards: bigint;
  stake_shares: bigint;
  staker_pool: bigint;
  stake_shares_total: bigint;
  is_staked: boolean;
}

/** What the chain and supply totals count about one account. */
export interface AccountFacts {
  balance: bigint;
  funded: boolean;
  dust: boolean;
  /** An implicit account that never received tez while indexed. */
  ghost: boolean;
  /** The baker this account delegates a non-zero balance to. */
  delegatesTo: bigint | null;
  /** The balance it delegates (0 when it does not delegate). */
  delegated: bigint;
  isBaker: boolean;
}

const NO_FACTS: AccountFacts = {
  balance: 0n,
  funded: false,
  dust: false,
  ghost: false,
  delegatesTo: null,
  delegated: 0n,
  isBaker: false,
};

export function factsOf(a: AccountData): AccountFacts {
  const balance = a.spendable_balance;
  const funded = balance > 0n;
  return {
    balance,
    funded,
    dust: funded && balance < ONE_TEZ,
    ghost: isImplicitType(a.address_type) && !funded && a.total_received === 0n && !a.is_baker && !a.is_activated,
    delegatesTo: a.is_delegated && funded ? a.baker_id : null,
    delegated: a.is_delegated ? balance : 0n,
    isBaker: a.is_baker,
  };
}

const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : bigOrZero(v));
const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : storedDate(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** Reads a stored row into typed values (the driver hands integers and money back as bigint or text). */
function readAccount(e: Entity): AccountData {
  return {
    address: String(e.address),
    address_type: String(e.address_type),
    pubkey: str(e.pubkey),
    counter: bigOrZero(e.counter),
    baker_id: bigOrNull(e.baker_id),
    creator_id: bigOrNull(e.creator_id),
    first_in: numOrNull(e.first_in),
    first_out: numOrNull(e.first_out),
    last_in: numOrNull(e.last_in),
    last_out: numOrNull(e.last_out),
    first_seen: num(e.first_seen),
    last_seen: num(e.last_seen),
    delegated_since: numOrNull(e.delegated_since),
    total_received: bigOrZero(e.total_received),
    total_sent: bigOrZero(e.total_sent),
    total_burned: bigOrZero(e.total_burned),
    total_fees_paid: bigOrZero(e.total_fees_paid),
    total_fees_used: bigOrZero(e.total_fees_used),
    unclaimed_balance: bigOrZero(e.unclaimed_balance),
    spendable_balance: bigOrZero(e.spendable_balance),
    frozen_bond: bigOrZero(e.frozen_bond),
    lost_bond: bigOrZero(e.lost_bond),
    is_funded: e.is_funded === true,
    is_activated: e.is_activated === true,
    is_delegated: e.is_delegated === true,
    is_revealed: e.is_revealed === true,
    is_baker: e.is_baker === true,
    is_contract: e.is_contract === true,
    n_tx_success: num(e.n_tx_success),
    n_tx_failed: num(e.n_tx_failed),
    n_tx_in: num(e.n_tx_in),
    n_tx_out: num(e.n_tx_out),
    baker: str(e.baker),
    creator: str(e.creator),
    first_seen_time: storedDate(e.first_seen_time),
    last_seen_time: storedDate(e.last_seen_time),
    first_in_time: dateOrNull(e.first_in_time),
    last_in_time: dateOrNull(e.last_in_time),
    first_out_time: dateOrNull(e.first_out_time),
    last_out_time: dateOrNull(e.last_out_time),
    delegated_since_time: dateOrNull(e.delegated_since_time),
    staked_balance: bigOrZero(e.staked_balance),
    unstaked_balance: bigOrZero(e.unstaked_balance),
    lost_stake: bigOrZero(e.lost_stake),
    frozen_rewards: bigOrZero(e.frozen_rewards),
    stake_shares: bigOrZero(e.stake_shares),
    staker_pool: bigOrZero(e.staker_pool),
    stake_shares_total: bigOrZero(e.stake_shares_total),
    is_staked: e.is_staked === true,
  };
}

function newAccount(address: string, type: string, height: number, time: Date): AccountData {
  return {
    address,
    address_type: type,
    pubkey: null,
    counter: 0n,
    baker_id: null,
    creator_id: null,
    first_in: null,
    first_out: null,
    last_in: null,
    last_out: null,
    first_seen: height,
    last_seen: height,
    delegated_since: null,
    total_received: 0n,
    total_sent: 0n,
    total_burned: 0n,
    total_fees_paid: 0n,
    total_fees_used: 0n,
    unclaimed_balance: 0n,
    spendable_balance: 0n,
    frozen_bond: 0n,
    lost_bond: 0n,
    is_funded: false,
    is_activated: false,
    is_delegated: false,
    is_revealed: false,
    is_baker: false,
    is_contract: type === 'contract',
    n_tx_success: 0,
    n_tx_failed: 0,
    n_tx_in: 0,
    n_tx_out: 0,
    baker: null,
    creator: null,
    first_seen_time: time,
    last_seen_time: time,
    first_in_time: null,
    last_in_time: null,
    first_out_time: null,
    last_out_time: null,
    delegated_since_time: null,
    staked_balance: 0n,
    unstaked_balance: 0n,
    lost_stake: 0n,
    frozen_rewards: 0n,
    stake_shares: 0n,
    staker_pool: 0n,
    stake_shares_total: 0n,
    is_staked: false,
  };
}

/** An external staker's staked tez are not a fixed amount: stored as null (see `stake_shares`). */
const isExternalStaker = (a: AccountData): boolean => a.stake_shares > 0n && !a.is_baker;
const isStaked = (a: AccountData): boolean => a.staked_balance > 0n || a.stake_shares > 0n;

/** The stored row of a new account. */
function accountRow(a: AccountData): Record<string, unknown> {
  return { ...a, staked_balance: isExternalStaker(a) ? null : a.staked_balance, is_staked: isStaked(a) };
}

/**
 * The typed copy of each row as `finish` wrote it back, by the store's entity. Why: a baker's row is
 * touched by nearly every block it attests, and typing all its columns again each time was about a
 * tenth of core-chain's allocations. Keyed by the entity object, so a row the store reloads (after a
 * failed batch, a rollback or an eviction) is a new entity and is typed afresh; only `finish` updates
 * account rows.
 */
const written = new WeakMap<Entity, AccountData>();

/**
 * Writes the working copy back, as a patch of the columns that differ from the row (most blocks
 * change a baker's `last_seen` and little else), and keeps it as what reading the row again would give.
 */
function writeBack(store: EntityStore, entity: Entity, a: AccountData): void {
  a.is_staked = isStaked(a);
  const staker = isExternalStaker(a);
  const patch: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(a)) {
    const v = staker && k === 'staked_balance' ? null : value;
    if (entity[k] !== v) patch[k] = v;
  }
  store.update(entity, patch);
  if (staker) a.staked_balance = 0n;
  written.set(entity, a);
}

/** An account touched by the block: its stored entity, the working copy, and how it was before. */
export class TrackedAccount {
  constructor(
    readonly entity: Entity,
    readonly data: AccountData,
    /** Undefined for accounts first seen in this block. */
    readonly before: AccountFacts | undefined,
    /** When the account was last seen before this block (undefined when new). */
    readonly previouslySeen: Date | undefined,
  ) {}

  get id(): bigint {
    return this.entity.row_id;
  }

  get isNew(): boolean {
    return this.before === undefined;
  }
}

/** How the accounts of one block changed the chain-wide account statistics. */
export interface AccountChanges {
  touched: number;
  created: TrackedAccount[];
  funded: number;
  cleared: number;
  dustDelta: number;
  ghostDelta: number;
  bakersDelta: number;
  /** Funded delegators gained (+) or lost (−) per baker id. */
  delegators: Map<bigint, number>;
  dustDelegatorsDelta: number;
  /** Change of the balances delegated to bakers. */
  delegatedDelta: bigint;
  /** Change of the bakers' own spendable balances. */
  bakerBalanceDelta: bigint;
  /** Accounts whose spendable balance differs from the start of the block. */
  balanceChanged: TrackedAccount[];
}

/**
 * The accounts a block touches. Every address that appears in the block in any role is tracked
 * (created on first sight, row id fixed at once), changed in a typed working copy, and written back
 * once at the end of the block, which also yields the chain-wide transitions.
 */
export class AccountBook {
  private readonly accounts = new Map<string, TrackedAccount>();

  constructor(
    private readonly store: EntityStore,
    private readonly height: number,
    private readonly time: Date,
  ) {}

  async preload(addresses: Iterable<string>): Promise<void> {
    await this.store.preload(addresses);
  }

  /** The account with that address, created when first seen; undefined for addresses without an account kind. */
  async track(address: string | undefined): Promise<TrackedAccount | undefined> {
    if (address === undefined || address === '') return undefined;
    const known = this.accounts.get(address);
    if (known) return known;
    let tracked: TrackedAccount;
    const entity = await this.store.get(address);
    if (entity) {
      const data = written.get(entity) ?? readAccount(entity);
      tracked = new TrackedAccount(entity, data, factsOf(data), data.last_seen_time);
      data.last_seen = this.height;
      data.last_seen_time = this.time;
    } else {
      const type = addressType(address);
      if (type === undefined) return undefined;
      const data = newAccount(address, type, this.height, this.time);
      tracked = new TrackedAccount(this.store.insert(accountRow(data)), data, undefined, undefined);
    }
    this.accounts.set(address, tracked);
    return tracked;
  }

  /** An account tracked earlier in this block. */
  get(address: string | undefined): TrackedAccount | undefined {
    return address === undefined ? undefined : this.accounts.get(address);
  }

  id(address: string | undefined): bigint | null {
    return this.get(address)?.id ?? null;
  }

  /** Registered bakers delegate to themselves. */
  markBaker(address: string | undefined): void {
    const a = this.get(address)?.data;
    if (!a || address === undefined || a.is_baker || a.address_type === 'contract') return;
    a.is_baker = true;
    this.delegate(address, address);
  }

  /** Sets (or, with undefined, withdraws) the account's baker. */
  delegate(address: string, baker: string | undefined): void {
    const a = this.get(address)?.data;
    if (!a) return;
    const bakerId = this.id(baker);
    a.baker_id = bakerId;
    a.baker = bakerId === null ? null : (baker ?? null);
    a.is_delegated = bakerId !== null && baker !== address;
    a.delegated_since = bakerId === null ? null : this.height;
    a.delegated_since_time = bakerId === null ? null : this.time;
  }

  /**
   * A receipt that names a staker's delegate shows the delegation, even when the delegation itself
   * was never indexed (genesis, or a start at a later level).
   */
  confirmDelegate(address: string, baker: string): void {
    const a = this.get(address)?.data;
    if (a && a.baker !== baker && address !== baker) this.delegate(address, baker);
  }

  /** Account ids by address, for other plugins' handlers of the same block. */
  ids(): Map<string, bigint> {
    const ids = new Map<string, bigint>();
    for (const [address, a] of this.accounts) ids.set(address, a.id);
    return ids;
  }

  /** Writes every tracked account back and returns what changed chain-wide. */
  finish(): AccountChanges {
    const changes: AccountChanges = {
      touched: this.accounts.size,
      created: [],
      funded: 0,
      cleared: 0,
      dustDelta: 0,
      ghostDelta: 0,
      bakersDelta: 0,
      delegators: new Map(),
      dustDelegatorsDelta: 0,
      delegatedDelta: 0n,
      bakerBalanceDelta: 0n,
      balanceChanged: [],
    };
    const count = (baker: bigint | null, delta: number): void => {
      if (baker !== null) changes.delegators.set(baker, (changes.delegators.get(baker) ?? 0) + delta);
    };
    for (const account of this.accounts.values()) {
      const a = account.data;
      a.is_funded = a.spendable_balance > 0n;
      const before = account.before ?? NO_FACTS;
      const after = factsOf(a);
      if (account.isNew) changes.created.push(account);
      if (before.balance !== after.balance) changes.balanceChanged.push(account);
      if (!before.funded && after.funded) changes.funded++;
      if (before.funded && !after.funded) changes.cleared++;
      changes.dustDelta += Number(after.dust) - Number(before.dust);
      changes.ghostDelta += Number(after.ghost) - Number(before.ghost);
      changes.bakersDelta += Number(after.isBaker) - Number(before.isBaker);
      if (before.delegatesTo !== after.delegatesTo) {
        count(before.delegatesTo, -1);
        count(after.delegatesTo, 1);
      }
      changes.dustDelegatorsDelta +=
        Number(after.dust && after.delegatesTo !== null) - Number(before.dust && before.delegatesTo !== null);
      changes.delegatedDelta += after.delegated - before.delegated;
      changes.bakerBalanceDelta += (after.isBaker ? after.balance : 0n) - (before.isBaker ? before.balance : 0n);
      writeBack(this.store, account.entity, a);
    }
    return changes;
  }
}
