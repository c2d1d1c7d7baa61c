import type { Entity, EntityStore } from '../../framework';
import { bumpCallStats, ContractScript } from './ContractScript';
import type { ContractRow, StorageRow } from './tables.generated';
import { bigOrZero, encodeMicheline, hash8, isRecord } from '../../framework';
import { storedDate } from './storedDate';

/** A `contract` row as core-chain works with it during a block. */
interface ContractData {
  address: string;
  account_id: bigint;
  creator_id: bigint | null;
  first_seen: number;
  last_seen: number;
  storage_size: bigint;
  storage_paid: bigint;
  storage_burn: bigint;
  script: string | null;
  storage: string | null;
  iface_hash: string | null;
  code_hash: string | null;
  storage_hash: string | null;
  call_stats: string;
  features: string;
  interfaces: string;
  creator: string | null;
  first_seen_time: Date;
  last_seen_time: Date;
  n_calls_failed: bigint;
}

export interface Origination {
  address: string;
  accountId: bigint;
  creator?: { id: bigint; address: string };
  /** `{code, storage}`; absent for rollups and for migration originations whose receipt has no script. */
  script?: unknown;
  /** The storage after origination (the receipt's, else the script's initial one with lazy storage ids). */
  storage?: unknown;
  storageSize: bigint;
  storagePaid: bigint;
  storageBurn: bigint;
}

export interface ContractCall {
  entrypoint?: string;
  /** Storage after the call, when the receipt has it. */
  storage?: unknown;
  storageSize?: bigint;
  storagePaid: bigint;
  storageBurn: bigint;
  /** A call of an entrypoint (counted in call_stats), not a storage update by the protocol. */
  isCall: boolean;
}

/** Scripts decoded from stored rows, kept across blocks (a contract's code never changes). */
export class ScriptCache {
  private readonly scripts = new Map<string, ContractScript | null>();
  /** Contracts whose script was asked from the node (their origination was not indexed). */
  private readonly askedNode = new Set<string>();
  constructor(private readonly max = 20_000) {}

  /** True the first time for an address: the node is asked about a contract once. */
  firstNodeAsk(address: string): boolean {
    if (this.askedNode.has(address)) return false;
    if (this.askedNode.size >= this.max) this.askedNode.clear();
    this.askedNode.add(address);
    return true;
  }

  get(address: string, hex: string | null): ContractScript | undefined {
    let script = this.scripts.get(address);
    if (script === undefined) {
      script = (hex && ContractScript.fromBytes(Buffer.from(hex, 'hex'))) || null;
      this.set(address, script);
    }
    return script ?? undefined;
  }

  set(address: string, script: ContractScript | null): void {
    if (this.scripts.size >= this.max) this.scripts.clear();
    this.scripts.set(address, script);
  }
}

const hexOf = (v: unknown): string | null =>
  v === null || v === undefined ? null : Buffer.isBuffer(v) ? v.toString('hex') : String(v);

function readContract(e: Entity): ContractData {
  return {
    address: String(e.address),
    account_id: bigOrZero(e.account_id),
    creator_id: e.creator_id === null || e.creator_id === undefined ? null : bigOrZero(e.creator_id),
    first_seen: Number(e.first_seen),
    last_seen: Number(e.last_seen),
    storage_size: bigOrZero(e.storage_size),
    storage_paid: bigOrZero(e.storage_paid),
    storage_burn: bigOrZero(e.storage_burn),
    script: hexOf(e.script),
    storage: hexOf(e.storage),
    iface_hash: hexOf(e.iface_hash),
    code_hash: hexOf(e.code_hash),
    storage_hash: hexOf(e.storage_hash),
    call_stats: hexOf(e.call_stats) ?? '',
    features: String(e.features ?? ''),
    interfaces: String(e.interfaces ?? ''),
    creator: e.creator === null || e.creator === undefined ? null : String(e.creator),
    first_seen_time: storedDate(e.first_seen_time),
    last_seen_time: storedDate(e.last_seen_time),
    n_calls_failed: bigOrZero(e.n_calls_failed),
  };
}

/** A contract the block originated or called. */
export class TrackedContract {
  constructor(
    readonly entity: Entity,
    readonly data: ContractData,
    readonly script: ContractScript | undefined,
  ) {}

  get codeHash(): string | null {
    return this.data.code_hash;
  }

  entrypointId(name: string | undefined): number | null {
    return this.script?.entrypointId(name) ?? null;
  }
}

/**
 * Contracts (and rollups) of one block: rows created on origination, updated by calls (storage,
 * call counters), written back once at the end of the block. Contracts originated before the first
 * indexed block have no row, so their calls only fill what the op row itself carries.
 */
export class ContractBook {
  private readonly contracts = new Map<string, TrackedContract>();
  /** Contracts and rollups originated in this block. */
  readonly originated: TrackedContract[] = [];
  /** Rows of the storage table: every storage a contract took in this block, once per change. */
  readonly storageRows: StorageRow[] = [];
  /** Latest storage hash in this block of contracts without a row. */
  private readonly untracked = new Map<string, string>();

  constructor(
    private readonly store: EntityStore<ContractRow, 'address'>,
    private readonly scripts: ScriptCache,
    private readonly height: number,
    private readonly time: Date,
  ) {}

  async get(address: string | undefined): Promise<TrackedContract | undefined> {
    if (address === undefined) return undefined;
    const known = this.contracts.get(address);
    if (known) return known;
    const entity = await this.store.get(address);
    if (!entity) return undefined;
    const data = readContract(entity);
    const tracked = new TrackedContract(entity, data, this.scripts.get(address, data.script));
    this.contracts.set(address, tracked);
    return tracked;
  }

  async originate(o: Origination): Promise<TrackedContract> {
    // An address is originated once on chain; a source that repeats a block keeps the first row.
    const existing = await this.get(o.address);
    if (existing) return existing;
    const script = ContractScript.fromScript(o.script);
    const storage = encodeMicheline(o.storage);
    const storageHash = storage ? hash8(storage) : null;
    const data: ContractData = {
      address: o.address,
      account_id: o.accountId,
      creator_id: o.creator?.id ?? null,
      first_seen: this.height,
      last_seen: this.height,
      storage_size: o.storageSize,
      storage_paid: o.storagePaid,
      storage_burn: o.storageBurn,
      // The script as sent (its storage with big map literals); `storage` as the chain keeps it (with ids).
      script:
        script
          ?.scriptBytes(encodeMicheline(isRecord(o.script) ? o.script.storage : undefined) ?? storage)
          ?.toString('hex') ?? null,
      storage: storage?.toString('hex') ?? null,
      iface_hash: script?.ifaceHash ?? null,
      code_hash: script?.codeHash ?? null,
      storage_hash: storageHash,
      call_stats: Buffer.alloc((script?.entrypoints.length ?? 0) * 4).toString('hex'),
      features: script?.features ?? '',
      interfaces: script?.interfaces ?? '',
      creator: o.creator?.address ?? null,
      first_seen_time: this.time,
      last_seen_time: this.time,
      n_calls_failed: 0n,
    };
    if (storage && storageHash) this.keepStorage(data, storageHash, storage);
    this.scripts.set(o.address, script ?? null);
    const tracked = new TrackedContract(this.store.insert({ ...data }), data, script);
    this.contracts.set(o.address, tracked);
    this.originated.push(tracked);
    return tracked;
  }

  /**
   * Gives a contract whose row has no script (its origination was not indexed, or its receipt had
   * none: bootstrap and migration contracts) the script the node has, so its calls are counted per
   * entrypoint and carry the code hash.
   */
  attachScript(contract: TrackedContract, raw: { code?: unknown; storage?: unknown }): TrackedContract {
    const script = ContractScript.fromScript(raw);
    if (!script) return contract;
    const c = contract.data;
    c.script = script.scriptBytes(encodeMicheline(raw.storage))?.toString('hex') ?? null;
    c.iface_hash = script.ifaceHash;
    c.code_hash = script.codeHash;
    c.call_stats = Buffer.alloc(script.entrypoints.length * 4).toString('hex');
    c.features = script.features;
    c.interfaces = script.interfaces;
    this.scripts.set(c.address, script);
    const tracked = new TrackedContract(contract.entity, c, script);
    this.contracts.set(c.address, tracked);
    return tracked;
  }

  /** Applies an applied call; returns the storage hash after it (null when the receipt has no storage). */
  call(contract: TrackedContract, call: ContractCall): string | null {
    const c = contract.data;
    c.last_seen = this.height;
    c.last_seen_time = this.time;
    c.storage_paid += call.storagePaid;
    c.storage_burn += call.storageBurn;
    if (call.storageSize !== undefined) c.storage_size = call.storageSize;
    const id = call.isCall ? contract.entrypointId(call.entrypoint) : null;
    if (id !== null && contract.script) {
      c.call_stats = bumpCallStats(Buffer.from(c.call_stats, 'hex'), contract.script.entrypoints.length, id).toString(
        'hex',
      );
    }
    const storage = encodeMicheline(call.storage);
    if (storage) {
      const before = c.storage_hash;
      c.storage = storage.toString('hex');
      c.storage_hash = hash8(storage);
      if (c.storage_hash !== before) this.keepStorage(c, c.storage_hash, storage);
    }
    return storage ? c.storage_hash : null;
  }

  /** A call the node did not apply (failed, backtracked or skipped). */
  failedCall(contract: TrackedContract): void {
    contract.data.n_calls_failed++;
  }

  /**
   * Storage a call left in a contract that has no row (originated before the first indexed block):
   * history starts with its first indexed call.
   */
  untrackedCall(address: string, accountId: bigint, storage: unknown): string | null {
    const bytes = encodeMicheline(storage);
    if (!bytes) return null;
    const hash = hash8(bytes);
    if (this.untracked.get(address) !== hash) this.keepStorage({ account_id: accountId, address }, hash, bytes);
    this.untracked.set(address, hash);
    return hash;
  }

  private keepStorage(c: Pick<ContractData, 'account_id' | 'address'>, hash: string, storage: Buffer): void {
    this.storageRows.push({
      account_id: c.account_id,
      hash,
      height: this.height,
      storage: storage.toString('hex'),
      contract: c.address,
      time: this.time,
    });
  }

  finish(): void {
    for (const contract of this.contracts.values()) this.store.update(contract.entity, { ...contract.data });
  }
}
