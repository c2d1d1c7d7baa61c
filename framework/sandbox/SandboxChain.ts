import { AccountBook, type Account } from './AccountBook';
import type { ChainIdentity } from './BlockContext';
import { buildBlock, type ChainRuntime } from './BlockBuilder';
import { BlockStore, type StoredBlock } from './BlockStore';
import { ChainCalendar } from './ChainCalendar';
import { ContractRegistry, type KnownContract } from './contracts/ContractRegistry';
import { builtinSandboxExtensions, type SandboxExtension } from './SandboxExtension';
import { createBakers } from './Genesis';
import { b58, blake2bOf, PrefixV2 } from './Hashing';
import { Journal } from './Journal';
import { buildConsensusOperations, type ConsensusInput } from './operations/ConsensusFactory';
import { resolveProfile, type SandboxProfile, type SandboxProfileName } from './profiles';
import { Prng } from './Prng';
import { Rights } from './Rights';
import { StakeSnapshots } from './StakeSnapshots';

/** Ushuaia (proto 025), the protocol active on mainnet now; the sandbox speaks its block shapes. */
export const SANDBOX_PROTOCOL = 'PsUshuai9QapM5TGj1JpuVGkdxz5GykdnEvS6Rh8SUVrARvZLCY';
/** Genesis protocol of Octez sandboxes (level 0 only). */
export const GENESIS_PROTOCOL = 'ProtoGenesisGenesisGenesisGenesisGenesisGenesk612im';
const ERROR_PREFIX = 'proto.025-PsUshuai';

export interface SandboxChainOptions {
  seed: string | number;
  profile?: SandboxProfileName | SandboxProfile;
  /** Timestamp of the genesis block (ISO 8601); fixed by default so chains are reproducible. */
  genesisTime?: string;
  /** How many blocks a reorg may replace (journal depth kept for rollback). */
  maxReorgDepth?: number;
  /** What plugins add to the chain; default: the built-in plugins' `sandbox.js` files. */
  extensions?: readonly SandboxExtension[];
  /**
   * The `defi` traffic sources to draw from, by name (default: all). A protocol's test names its own:
   * its calls are dense, and the chain does not change when other protocols add traffic.
   */
  traffic?: readonly string[];
}

export interface HeadEvent {
  hash: string;
  level: number;
  /** True when the new head does not extend the previous one (a branch switch). */
  reorg: boolean;
}

/**
 * A deterministic simulated Tezos chain: same seed and profile → byte-identical blocks. Blocks are
 * produced with `bake`, branches replaced with `reorg`; `blockJson` renders any block as the node's
 * `GET /chains/main/blocks/{id}` body. The ledger (`book`) is the head's state; `book.view(level)` reads
 * it as of any block of the current branch.
 */
export class SandboxChain {
  readonly seed: string;
  readonly profile: SandboxProfile;
  readonly identity: ChainIdentity;
  readonly genesisHash: string;
  readonly calendar: ChainCalendar;
  readonly book: AccountBook;
  readonly contracts: ContractRegistry;
  private readonly extensions: readonly SandboxExtension[];
  readonly rights: Rights;
  readonly stake: StakeSnapshots;
  readonly maxReorgDepth: number;
  private readonly journal: Journal;
  private readonly store = new BlockStore();
  private readonly runtime: ChainRuntime;
  private readonly listeners = new Set<(e: HeadEvent) => void>();
  private branchSalt = 0;
  private keysCache: { signature: string; keys: ConsensusInput['bakers'] } | undefined;

  constructor(options: SandboxChainOptions) {
    this.seed = String(options.seed);
    this.profile = resolveProfile(options.profile);
    this.maxReorgDepth = Math.max(1, options.maxReorgDepth ?? 64);
    const genesisTime = Date.parse(options.genesisTime ?? '2026-07-01T00:00:00Z');
    if (Number.isNaN(genesisTime)) throw new Error(`invalid genesisTime "${options.genesisTime}"`);
    const genesisDigest = blake2bOf(32, 'tzidx-sandbox-genesis', this.seed, this.profile.name);
    this.genesisHash = b58(genesisDigest, PrefixV2.BlockHash);
    const chainId = b58(blake2bOf(32, genesisDigest).slice(0, 4), PrefixV2.ChainID);
    this.identity = { protocol: SANDBOX_PROTOCOL, chainId, errorPrefix: ERROR_PREFIX };
    this.calendar = new ChainCalendar(this.profile);
    this.journal = new Journal(this.maxReorgDepth);
    this.book = new AccountBook(this.journal, 1_000_000n);
    this.contracts = new ContractRegistry(this.book, this.seed, ERROR_PREFIX);
    this.extensions = onlyTraffic(options.extensions ?? builtinSandboxExtensions(), options.traffic);
    for (const e of this.extensions) e.register?.(this.contracts, this.book, ERROR_PREFIX);
    createBakers(this.book, Prng.derive(this.seed, 'bakers'), this.profile);
    this.stake = new StakeSnapshots(this.journal);
    this.rights = new Rights(this.seed, this.stake, this.calendar, this.profile.consensusCommitteeSize);
    this.store.push(this.genesisBlock(new Date(genesisTime).toISOString().replace('.000Z', 'Z')));
    this.runtime = {
      seed: this.seed,
      profile: this.profile,
      calendar: this.calendar,
      identity: this.identity,
      book: this.book,
      journal: this.journal,
      contracts: this.contracts,
      extensions: this.extensions,
      rights: this.rights,
      stake: this.stake,
      store: this.store,
      genesisTime: genesisTime / 1000,
      bakerKeys: () => this.bakerKeys(),
    };
  }

  get headLevel(): number {
    return this.store.headLevel;
  }

  get head(): StoredBlock {
    return this.store.at(this.store.headLevel) as StoredBlock;
  }

  /** Bake `count` blocks on the current head. */
  bake(count = 1): StoredBlock[] {
    const out: StoredBlock[] = [];
    for (let i = 0; i < count; i++) {
      const level = this.store.headLevel + 1;
      const round = SandboxChain.roundOf(this.seed, this.profile, level, this.branchSalt);
      const block = buildBlock(this.runtime, level, this.branchSalt, round);
      this.store.push(block);
      out.push(block);
      this.emit({ hash: block.hash, level, reorg: false });
    }
    return out;
  }

  /**
   * The genesis time at which a chain of this seed and profile has its block `level` at `endsAt` (to the
   * second below), e.g. so that a demo's pre-built history ends now. Block times depend only on the seed and the
   * profile, so this needs no chain.
   */
  static genesisTimeEndingAt(
    seed: string | number,
    profile: SandboxProfileName | SandboxProfile | undefined,
    level: number,
    endsAt: Date,
  ): string {
    const resolved = resolveProfile(profile);
    const calendar = new ChainCalendar(resolved);
    let seconds = Math.floor(endsAt.getTime() / 1000);
    for (let l = 1; l <= level; l++)
      seconds -= calendar.secondsToNext(SandboxChain.roundOf(String(seed), resolved, l, 0));
    return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  }

  /** Round of the block baked at `level` on a branch: mostly 0, sometimes a round-1 re-proposal. */
  private static roundOf(seed: string, profile: SandboxProfile, level: number, branchSalt: number): number {
    return Prng.derive(seed, 'round', level, branchSalt).chance(profile.roundOneRate) ? 1 : 0;
  }

  /** Bake until the head reaches `level`. */
  bakeTo(level: number): void {
    if (level > this.headLevel) this.bake(level - this.headLevel);
  }

  /**
   * Replace the last `depth` blocks with a different branch of the same length, as a node switching to
   * a heavier fork: the new head is a round-1 re-proposal (with preattestations), so its fitness is
   * strictly higher than the old head's. Returns the new blocks.
   */
  reorg(depth: number): StoredBlock[] {
    if (!Number.isInteger(depth) || depth < 1) throw new Error(`reorg depth must be a positive integer, got ${depth}`);
    if (depth > this.journal.depth || depth > this.headLevel - 1)
      throw new Error(
        `reorg depth ${depth} exceeds what can be rolled back (${Math.min(this.journal.depth, this.headLevel - 1)})`,
      );
    const top = this.headLevel;
    for (let i = 0; i < depth; i++) {
      this.store.pop();
      this.journal.rollbackBlock();
    }
    this.branchSalt++;
    const out: StoredBlock[] = [];
    for (let level = top - depth + 1; level <= top; level++) {
      const block = buildBlock(this.runtime, level, this.branchSalt, level === top ? 1 : 0);
      this.store.push(block);
      out.push(block);
    }
    // Only the new head becomes head; the blocks below it never were (as /monitor/heads shows it).
    const head = out[out.length - 1];
    this.emit({ hash: head.hash, level: head.level, reorg: true });
    return out;
  }

  /** Subscribe to new heads; returns the unsubscribe function. */
  onHead(listener: (e: HeadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A block by id as the RPC accepts it: `head`, `genesis`, a level, a block hash, each optionally
   * followed by `~N` (N blocks before) or `+N` (after).
   */
  resolve(id: string): StoredBlock | undefined {
    const m = /^(.+?)(?:([~+-])(\d+))?$/.exec(id);
    if (!m) return undefined;
    const [, base, sign, offset] = m;
    let level: number | undefined;
    if (base === 'head') level = this.headLevel;
    else if (base === 'genesis') level = 0;
    else if (/^\d+$/.test(base)) level = Number(base);
    else level = this.store.byBlockHash(base)?.level;
    if (level === undefined) return undefined;
    if (sign) level += (sign === '+' ? 1 : -1) * Number(offset);
    return this.store.at(level);
  }

  at(level: number): StoredBlock | undefined {
    return this.store.at(level);
  }

  /** The block as the node serves `GET /chains/main/blocks/{id}` (JSON text). */
  blockJson(block: StoredBlock): string {
    return this.store.cached(block.hash, () => {
      if (block.level === 0) return JSON.stringify(this.genesisJson(block));
      const body = BlockStore.unpack(block.body);
      const pass0 = block.consensus ? buildConsensusOperations(block.consensus).operations : [];
      return JSON.stringify({
        protocol: this.identity.protocol,
        chain_id: this.identity.chainId,
        hash: block.hash,
        header: block.header,
        metadata: body.metadata,
        operations: [pass0, ...body.operations],
      });
    });
  }

  /** Parsed block (convenience for tests and tools). */
  block(id: string | number): Record<string, unknown> | undefined {
    const b = this.resolve(String(id));
    return b ? (JSON.parse(this.blockJson(b)) as Record<string, unknown>) : undefined;
  }

  account(address: string): Account | undefined {
    return this.book.find(address);
  }

  /** Bootstrap contracts (tokens, LB, DEXes, farm, lending…) and their roles. */
  knownContracts(): KnownContract[] {
    return this.contracts.known();
  }

  /** Bytes of compressed block bodies held in memory. */
  get storedBytes(): number {
    return this.store.storedBytes;
  }

  private emit(e: HeadEvent): void {
    for (const l of this.listeners) l(e);
  }

  private bakerKeys(): ConsensusInput['bakers'] {
    const signature = this.book.bakers.map((b) => b.consensusKey).join();
    if (this.keysCache?.signature !== signature)
      this.keysCache = {
        signature,
        keys: this.book.bakers.map((b) => ({
          address: b.address,
          consensusKey: b.consensusKey,
          consensusKind: b.consensusKind,
        })),
      };
    return this.keysCache.keys;
  }

  private genesisBlock(timestamp: string): StoredBlock {
    return {
      level: 0,
      hash: this.genesisHash,
      predecessor: this.genesisHash,
      round: 0,
      payloadHash: '',
      timestamp,
      header: {
        level: 0,
        proto: 0,
        predecessor: this.genesisHash,
        timestamp,
        validation_pass: 0,
        operations_hash: b58(blake2bOf(32, 'genesis-operations', this.seed), PrefixV2.OperationListListHash),
        fitness: [],
        context: b58(blake2bOf(32, 'genesis-context', this.seed), PrefixV2.ContextHash),
      },
      consensus: undefined,
      body: Buffer.alloc(0),
    };
  }

  private genesisJson(block: StoredBlock): Record<string, unknown> {
    return {
      protocol: GENESIS_PROTOCOL,
      chain_id: this.identity.chainId,
      hash: block.hash,
      header: block.header,
      metadata: {
        protocol: GENESIS_PROTOCOL,
        next_protocol: SANDBOX_PROTOCOL,
        test_chain_status: { status: 'not_running' },
        max_operations_ttl: 0,
        max_operation_data_length: 0,
        max_block_header_length: 105,
        max_operation_list_length: [],
      },
      operations: [],
    };
  }
}

/**
 * The extensions with only the named traffic sources (contracts and block results stay). Their openings (a DEX's early
 * deposits, which farms need LP from) stay while any `defi` traffic is kept; `traffic: []` is a chain with none.
 */
function onlyTraffic(
  extensions: readonly SandboxExtension[],
  names: readonly string[] | undefined,
): readonly SandboxExtension[] {
  if (!names) return extensions;
  const known = new Set(extensions.flatMap((e) => (e.traffic ?? []).map((t) => t.name)));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw new Error(`unknown sandbox traffic ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  return extensions.map((e) => ({
    ...e,
    traffic: (e.traffic ?? []).filter((t) => names.includes(t.name)),
    openings: names.length > 0 ? e.openings : undefined,
  }));
}
