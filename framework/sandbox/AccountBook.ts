import type { Journal } from './Journal';
import type { ImplicitKind, KeyPair } from './Keys';
import { LedgerHistory } from './LedgerHistory';
import { LedgerView } from './LedgerView';
import type { Micheline } from './Michelson';

export interface UnstakeRequest {
  cycle: number;
  amount: bigint;
  delegate: string;
}

export interface Account {
  readonly address: string;
  /** tz1…tz4 for implicit accounts, undefined for KT1 contracts. */
  readonly kind: ImplicitKind | undefined;
  readonly publicKey: string | undefined;
  revealed: boolean;
  /** Spendable balance in mutez: what `/context/contracts/{id}/balance` returns. */
  balance: bigint;
  counter: bigint;
  delegate: string | undefined;
  /** Pseudotokens held in the delegate's shared staking pool (external stakers). */
  stakingNumerator: bigint;
  unstakeRequests: UnstakeRequest[];
  script: { code: Micheline; storage: Micheline } | undefined;
  storageSize: bigint;
  paidStorage: bigint;
}

export interface Baker {
  readonly address: string;
  readonly index: number;
  consensusKey: string;
  consensusPk: string;
  consensusKind: ImplicitKind;
  companionKey: string | undefined;
  /** The baker's own frozen stake (`baker_own_stake`) and accumulated edge (`baker_edge`), mutez. */
  ownStaked: bigint;
  edgeStaked: bigint;
  /** Frozen tez of external stakers (`{delegate}` staker), shared through pseudotokens. */
  sharedStaked: bigint;
  stakingDenominator: bigint;
  /** Bootstrap stake in tez (the power-law draw at genesis); what the baker is funded with in block 1. */
  readonly weight: number;
  /** Level of the last attestation or baked block, for deactivation bookkeeping. */
  lastActiveLevel: number;
  /** Attestation slots expected and missed in the current cycle (attesting rewards at cycle end). */
  cycleExpectedSlots: number;
  cycleMissedSlots: number;
}

/**
 * Baker fields that change for most bakers in every block and that no RPC reads: they get no history,
 * which would otherwise be most of its size.
 */
const UNLOGGED_BAKER_FIELDS: ReadonlySet<keyof Baker> = new Set<keyof Baker>(['cycleExpectedSlots', 'lastActiveLevel']);

export interface BigMap {
  readonly id: number;
  readonly keyType: Micheline;
  readonly valueType: Micheline;
  readonly entries: Map<string, { key: Micheline; value: Micheline }>;
}

/**
 * The sandbox's ledger state: accounts, bakers, contracts, big maps and global constants. Every mutation
 * goes through a method that writes an undo entry to the journal, so a block can be rolled back, and
 * touches the history, so the state as of any block can be read back (`view`).
 */
export class AccountBook {
  private readonly accounts = new Map<string, Account>();
  private readonly addresses: string[] = [];
  readonly bakers: Baker[] = [];
  private readonly bakerByAddress = new Map<string, Baker>();
  private readonly bigMaps = new Map<number, BigMap>();
  private readonly contractStates = new Map<string, unknown>();
  readonly globalConstants = new Map<string, Micheline>();
  private nextBigMap = 0;
  /** Protocol-wide manager counter: a new account starts from it, every manager operation bumps it. */
  globalCounter: bigint;

  readonly history: LedgerHistory;

  constructor(
    private readonly journal: Journal,
    initialGlobalCounter: bigint,
  ) {
    this.globalCounter = initialGlobalCounter;
    this.history = new LedgerHistory(journal);
  }

  /** Read-only ledger as of the end of block `level` (the live state when undefined). */
  view(level?: number): LedgerView {
    return new LedgerView(
      this.history,
      level,
      this.accounts,
      this.addresses,
      this.bakers,
      this.bakerByAddress,
      this.bigMaps,
    );
  }

  /** Undo hook for state kept outside the book (e.g. the contract registry). */
  recordUndo(undo: () => void): void {
    this.journal.record(undo);
  }

  // ---- accounts ---------------------------------------------------------------------------------

  has(address: string): boolean {
    return this.accounts.has(address);
  }

  get(address: string): Account {
    const a = this.accounts.get(address);
    if (!a) throw new Error(`sandbox: unknown account ${address}`);
    return a;
  }

  find(address: string): Account | undefined {
    return this.accounts.get(address);
  }

  /** All addresses in creation order (stable, hence deterministic iteration). */
  allAddresses(): readonly string[] {
    return this.addresses;
  }

  get size(): number {
    return this.addresses.length;
  }

  createImplicit(key: KeyPair): Account {
    return this.insert({
      address: key.address,
      kind: key.kind,
      publicKey: key.publicKey,
      revealed: false,
      balance: 0n,
      counter: this.globalCounter,
      delegate: undefined,
      stakingNumerator: 0n,
      unstakeRequests: [],
      script: undefined,
      storageSize: 0n,
      paidStorage: 0n,
    });
  }

  /** An implicit account known only by address (no key: it can receive but never sign), e.g. the null address. */
  createKeyless(address: string): Account {
    return this.createImplicit({ address, publicKey: '', kind: address.slice(0, 3) as ImplicitKind });
  }

  createContract(
    address: string,
    script: { code: Micheline; storage: Micheline },
    delegate: string | undefined,
    storageSize: bigint,
  ): Account {
    return this.insert({
      address,
      kind: undefined,
      publicKey: undefined,
      revealed: false,
      balance: 0n,
      counter: 0n,
      delegate,
      stakingNumerator: 0n,
      unstakeRequests: [],
      script,
      storageSize,
      paidStorage: storageSize,
    });
  }

  private insert(account: Account): Account {
    if (this.accounts.has(account.address)) throw new Error(`sandbox: account ${account.address} exists`);
    this.history.touch(this.accounts, account.address);
    this.accounts.set(account.address, account);
    this.addresses.push(account.address);
    this.journal.record(() => {
      this.accounts.delete(account.address);
      this.addresses.pop();
    });
    return account;
  }

  /** Change a spendable balance; a debit below zero is a generator bug, never silently clamped. */
  adjustBalance(address: string, delta: bigint): void {
    const a = this.get(address);
    const next = a.balance + delta;
    if (next < 0n) throw new Error(`sandbox: balance of ${address} would become negative (${a.balance} + ${delta})`);
    this.history.touch(a, 'balance');
    a.balance = next;
    this.journal.record(() => {
      a.balance -= delta;
    });
  }

  /** Set any mutable field of an account with an undo entry. */
  set<K extends keyof Account>(address: string, field: K, value: Account[K]): void {
    const a = this.get(address);
    const prev = a[field];
    this.history.touch(a, field);
    (a as { [P in K]: Account[P] })[field] = value;
    this.journal.record(() => {
      (a as { [P in K]: Account[P] })[field] = prev;
    });
  }

  /** Next counter of a manager operation by `address` (the account's and the global counter both move). */
  nextCounter(address: string): bigint {
    const a = this.get(address);
    const next = a.counter + 1n;
    this.set(address, 'counter', next);
    const prevGlobal = this.globalCounter;
    this.globalCounter = prevGlobal + 1n;
    this.journal.record(() => {
      this.globalCounter = prevGlobal;
    });
    return next;
  }

  // ---- bakers -----------------------------------------------------------------------------------

  addBaker(baker: Omit<Baker, 'index'>): Baker {
    const b: Baker = { ...baker, index: this.bakers.length };
    this.bakers.push(b);
    this.bakerByAddress.set(b.address, b);
    this.journal.record(() => {
      this.bakers.pop();
      this.bakerByAddress.delete(b.address);
    });
    return b;
  }

  baker(address: string): Baker | undefined {
    return this.bakerByAddress.get(address);
  }

  setBaker<K extends keyof Baker>(baker: Baker, field: K, value: Baker[K]): void {
    const prev = baker[field];
    if (!UNLOGGED_BAKER_FIELDS.has(field)) this.history.touch(baker, field);
    (baker as { [P in K]: Baker[P] })[field] = value;
    this.journal.record(() => {
      (baker as { [P in K]: Baker[P] })[field] = prev;
    });
  }

  // ---- chain-wide variables (LB EMA, governance, nonces) ------------------------------------------

  private readonly vars = new Map<string, unknown>();

  getVar<T>(name: string, fallback: T): T {
    return this.vars.has(name) ? (this.vars.get(name) as T) : fallback;
  }

  setVar<T>(name: string, value: T): void {
    const had = this.vars.has(name);
    const prev = this.vars.get(name);
    this.vars.set(name, value);
    this.journal.record(() => {
      if (had) this.vars.set(name, prev);
      else this.vars.delete(name);
    });
  }

  // ---- contract model state (reserves, big map ids…) kept beside the Micheline storage ------------

  state<T>(address: string): T {
    if (!this.contractStates.has(address)) throw new Error(`sandbox: no model state for ${address}`);
    return this.contractStates.get(address) as T;
  }

  setState<T>(address: string, value: T): void {
    const had = this.contractStates.has(address);
    const prev = this.contractStates.get(address);
    this.contractStates.set(address, value);
    this.journal.record(() => {
      if (had) this.contractStates.set(address, prev);
      else this.contractStates.delete(address);
    });
  }

  // ---- big maps and constants -------------------------------------------------------------------

  allocBigMap(keyType: Micheline, valueType: Micheline): BigMap {
    const id = this.nextBigMap++;
    const map: BigMap = { id, keyType, valueType, entries: new Map() };
    this.history.touch(this.bigMaps, id);
    this.bigMaps.set(id, map);
    this.journal.record(() => {
      this.bigMaps.delete(id);
      this.nextBigMap--;
    });
    return map;
  }

  bigMap(id: number): BigMap | undefined {
    return this.bigMaps.get(id);
  }

  /** Set (value defined) or remove (value undefined) one big_map entry. */
  setBigMapEntry(id: number, keyHash: string, key: Micheline, value: Micheline | undefined): void {
    const map = this.bigMaps.get(id);
    if (!map) throw new Error(`sandbox: unknown big_map ${id}`);
    const prev = map.entries.get(keyHash);
    this.history.touch(map.entries, keyHash);
    if (value === undefined) map.entries.delete(keyHash);
    else map.entries.set(keyHash, { key, value });
    this.journal.record(() => {
      if (prev) map.entries.set(keyHash, prev);
      else map.entries.delete(keyHash);
    });
  }

  removeBigMap(id: number): void {
    const map = this.bigMaps.get(id);
    if (!map) throw new Error(`sandbox: unknown big_map ${id}`);
    this.history.touch(this.bigMaps, id);
    this.bigMaps.delete(id);
    this.journal.record(() => this.bigMaps.set(id, map));
  }

  registerGlobalConstant(hash: string, value: Micheline): void {
    if (this.globalConstants.has(hash)) throw new Error(`sandbox: global constant ${hash} is already registered`);
    this.globalConstants.set(hash, value);
    this.journal.record(() => this.globalConstants.delete(hash));
  }
}
