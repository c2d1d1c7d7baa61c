import type { BalanceUpdate, IndexContext, NormalizedBlock, NormalizedOperation, TicketUpdate } from '../../framework';
import { fitsBigIntColumn, isRecord } from '../../framework';
import { AccountBook, type AccountData } from './AccountBook';
import { blockAddresses } from './BlockAddresses';
import { classifyBlockUpdates, classifyOperationUpdates, type ClassifiedUpdates, type Move } from './BalanceMoves';
import { planBlockEvents } from './BlockEvents';
import type { BlockIndexer, Denunciation } from './BlockIndexer';
import { ContractBook, type ScriptCache, type TrackedContract } from './ContractBook';
import { withLazyStorageIds } from './LazyStorageIds';
import { flowOperation } from './OperationKinds';
import { contractEventRow, ticketUpdateRows } from './EmittedRows';
import { eventRow, NO_PARTY, opId, operationRow, type OpRowExtras, type Party } from './OpRows';
import type { RunningState } from './RunningState';
import {
  tables,
  type BlockRow,
  type ConstantRow,
  type EventRow,
  type FlowRow,
  type TicketUpdateRow,
} from './tables.generated';
import { StakeLedger } from './StakeLedger';
import { allocationBurn } from './SupplyLedger';
import { encodeMicheline, exprHash, featuresOf, section, sharedKey } from '../../framework';

/** `ctx.shared` key under which core-chain leaves `Map<address, account row id>` of the block's accounts. */
export const ACCOUNT_IDS = sharedKey<ReadonlyMap<string, bigint>>('core-chain.accountIds');

// Tez sent here can never be spent again: tzindex's burn address and the all-zero key hash (where
// Liquidity Baking sends its 0.1% burn).
const BURN_ADDRESSES: ReadonlySet<string> = new Set([
  'tz1burnburnburnburnburnburnburjAYjjX',
  'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU',
]);

const TRANSACTION_TYPES: ReadonlySet<string> = new Set([
  'transaction',
  'stake',
  'unstake',
  'finalize_unstake',
  'set_delegate_parameters',
]);

const NO_UPDATES: ClassifiedUpdates = { moves: [], issuance: [] };
const NO_DENUNCIATIONS: ReadonlyMap<string, Denunciation> = new Map();

/** Both lists in one (read only): either one itself when the other is empty. */
function joined<T>(a: readonly T[], b: readonly T[]): readonly T[] {
  return b.length === 0 ? a : a.length === 0 ? b : [...a, ...b];
}

/** Figures of the block row that add up over its operations. */
interface BlockStats {
  nOpsApplied: number;
  nOpsFailed: number;
  nCalls: number;
  nRollupCalls: number;
  nEvents: number;
  nTx: number;
  nTickets: number;
  volume: bigint;
  fee: bigint;
  reward: bigint;
  deposit: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  storagePaid: bigint;
  newContracts: number;
  newRollups: number;
}

/**
 * The work on one block: its accounts, contracts, operations and block-level receipts, turned into
 * the rows of block, op, flow, balance, constant, chain and supply.
 */
export class BlockRun {
  private readonly height: number;
  private readonly time: Date;
  private readonly accounts: AccountBook;
  private readonly stakes: StakeLedger;
  private readonly contracts: ContractBook;
  private readonly flowRows: FlowRow[] = [];
  private readonly constantRows: ConstantRow[] = [];
  private readonly eventRows: EventRow[] = [];
  private readonly ticketRows: TicketUpdateRow[] = [];
  /** op_n of the latest signed (non-internal) operation: internal operations' events are filed under it. */
  private signedOpN = 0;
  /** Contracts whose calls changed a sapling state in this block (shielded pools). */
  private readonly saplingPools = new Set<string>();
  private readonly stats: BlockStats = {
    nOpsApplied: 0,
    nOpsFailed: 0,
    nCalls: 0,
    nRollupCalls: 0,
    nEvents: 0,
    nTx: 0,
    nTickets: 0,
    volume: 0n,
    fee: 0n,
    reward: 0n,
    deposit: 0n,
    gasLimit: 0n,
    gasUsed: 0n,
    storagePaid: 0n,
    newContracts: 0,
    newRollups: 0,
  };

  constructor(
    private readonly indexer: BlockIndexer,
    private readonly block: NormalizedBlock,
    private readonly ctx: IndexContext,
    private readonly state: RunningState,
    private readonly scripts: ScriptCache,
  ) {
    this.height = block.level;
    this.time = new Date(block.time);
    this.accounts = new AccountBook(ctx.entities(tables.account, 'address'), this.height, this.time);
    this.stakes = new StakeLedger((address) => this.accounts.get(address)?.data);
    this.contracts = new ContractBook(ctx.entities(tables.contract, 'address'), this.scripts, this.height, this.time);
  }

  async run(): Promise<void> {
    const block = this.block;
    this.state.supply.beginBlock();
    await this.trackAccounts();
    for (const op of block.operations) await this.indexOperation(op);
    await this.indexBlockUpdates();

    const changes = this.accounts.finish();
    this.contracts.finish();
    const { chain, supply } = this.state;
    chain.applyAccountChanges(changes, this.stats.newContracts, this.stats.newRollups);
    supply.finishBlock(changes.delegatedDelta, changes.bakerBalanceDelta);

    const at = { height: this.height, cycle: block.cycle, time: this.time };
    this.state.blockId = this.ctx.append(
      tables.block,
      this.blockRow(changes.touched, changes.created.length, changes.funded, changes.cleared),
    );
    for (const row of this.flowRows) this.ctx.append(tables.flow, row);
    for (const row of this.constantRows) this.ctx.append(tables.constant, row);
    for (const row of this.eventRows) this.ctx.append(tables.event, row);
    for (const row of this.ticketRows) this.ctx.append(tables.ticket_update, row);
    for (const row of this.contracts.storageRows) this.ctx.append(tables.storage, row);
    for (const a of changes.balanceChanged) {
      this.ctx.append(tables.balance, {
        account_id: a.id,
        balance: a.data.spendable_balance,
        valid_from: this.height,
        address: a.data.address,
        valid_from_time: this.time,
      });
    }
    this.ctx.append(tables.chain, { ...at, ...chain.row() });
    this.ctx.append(tables.supply, { ...at, ...supply.row() });
    this.ctx.shared.set(ACCOUNT_IDS, this.accounts.ids());
  }

  /**
   * Every address the block mentions: tracked (new ones get ids) in a fixed order. Their rows were read when the batch
   * opened (BlockIndexer.readAhead).
   */
  private async trackAccounts(): Promise<void> {
    const block = this.block;
    for (const a of blockAddresses(block)) await this.accounts.track(a);

    // Who acts as a baker is one: block producers, endorsers, owners of frozen baker deposits.
    this.accounts.markBaker(block.baker);
    this.accounts.markBaker(block.proposer);
    for (const op of block.operations)
      if (op.type === 'endorsement' || op.type === 'preendorsement') this.accounts.markBaker(op.sender);
    const bakerUpdates = [...block.balanceUpdates, ...block.operations.flatMap((o) => o.balanceUpdates)];
    for (const u of bakerUpdates) {
      if (u.kind === 'freezer' && u.staker?.contract === undefined && u.category !== 'bonds')
        this.accounts.markBaker(u.account);
    }
  }

  private party(address: string | undefined): Party {
    if (address === undefined) return NO_PARTY;
    const a = this.accounts.get(address);
    return a ? { id: a.id, address: a.data.address } : { id: null, address };
  }

  /** The id of an account the block's operations name (every one is tracked: blockAddresses). */
  private trackedId(address: string): bigint {
    const a = this.accounts.get(address);
    if (!a) throw new Error(`core-chain: ${address} is not among the block's accounts`);
    return a.id;
  }

  /** Staked deposits sit with the staker's current delegate. */
  private confirmDelegates(updates: readonly BalanceUpdate[]): void {
    for (const u of updates) {
      const staker = u.staker;
      if (
        u.kind === 'freezer' &&
        u.category === 'deposits' &&
        staker?.contract !== undefined &&
        staker.delegate !== undefined
      ) {
        this.accounts.confirmDelegate(staker.contract, staker.delegate);
      }
    }
  }

  private async indexOperation(op: NormalizedOperation): Promise<void> {
    // Most operations (attestations) have no balance updates: nothing to classify, no arrays to make.
    const content = op.balanceUpdates.length > 0 ? classifyOperationUpdates(op.balanceUpdates) : NO_UPDATES;
    const result =
      op.isSuccess && op.resultBalanceUpdates.length > 0
        ? classifyOperationUpdates(op.resultBalanceUpdates)
        : NO_UPDATES;
    this.confirmDelegates(op.balanceUpdates);
    this.stakes.apply(op.balanceUpdates);
    if (op.isSuccess) {
      this.confirmDelegates(op.resultBalanceUpdates);
      this.stakes.apply(op.resultBalanceUpdates);
    }
    // One side is empty for nearly every operation: no copies of it.
    const moves = joined(content.moves, result.moves);
    const allocations = this.allocations(op);
    const issuance = joined(content.issuance, result.issuance);
    if (issuance.length > 0)
      this.state.supply.recordOperation(issuance, {
        type: op.type,
        isRollup: op.isRollup,
        allocations,
        storagePaid: op.storagePaid,
      });
    const shielding = this.shielding(op);
    for (const m of moves)
      this.applyMove(
        m,
        op.opN,
        op.opC,
        op.opI > 0 ? op.opI : null,
        flowOperation(op.type),
        shielding && { kind: shielding, sender: op.sender },
      );
    if (shielding) this.state.supply.shield(shielding === 'shield' ? op.volume : -op.volume);

    const storageBurn = op.burned - allocationBurn(op.burned, op.storagePaid, allocations);
    const effects = await this.applyEffects(op, storageBurn);
    this.addStats(op);

    const { label: type, known } = this.indexer.kinds.opType(op.type);
    if (!known) this.indexer.warnUnknown(op.kind, this.height);
    const storageHash =
      effects.storageHash ?? (op.isContract && op.isSuccess && op.storage !== undefined ? exprHash(op.storage) : null);
    const extras: OpRowExtras = {
      type,
      sender: this.party(op.sender),
      receiver: this.party(op.receiver),
      creator: this.party(op.creator ?? (op.isInternal ? op.source : undefined)),
      baker: this.party(op.baker),
      ...this.rewardsOf(op, moves),
      storageHash,
      entrypointId: effects.called?.entrypointId(op.entrypoint) ?? null,
      codeHash: (effects.called ?? effects.originated)?.codeHash ?? null,
    };
    // Appended now: a slashing later in the block may name a denunciation by its row id.
    const rowId = this.ctx.append(tables.op, operationRow(this.block, this.time, op, extras));
    this.addEmissions(op);
    this.state.chain.countOperation({
      type,
      isSuccess: op.isSuccess,
      isEvent: op.isEvent,
      isInternal: op.isInternal,
      isContract: op.isContract,
      isRollup: op.isRollup,
      hasParameters: op.parameters !== undefined,
      storagePaid: op.storagePaid,
    });
    if (!op.isEvent) {
      if (op.isSuccess) this.stats.nOpsApplied++;
      else this.stats.nOpsFailed++;
    }
    if (op.isSuccess && !op.isInternal) {
      if (op.isContract) this.stats.nCalls++;
      if (type === 'transaction') this.stats.nTx++;
    }
    if (op.isSuccess && op.type.startsWith('double_')) this.indexer.recordDenunciation(this.ctx, op.hash, type, rowId);
  }

  /** Contract events and ticket updates of an applied operation (backtracked ones never happened). */
  private addEmissions(op: NormalizedOperation): void {
    if (!op.isInternal) this.signedOpN = op.opN;
    if (!op.isSuccess) return;
    const id = opId(this.height, op.opN);
    if (op.kind === 'event') {
      const signedId = opId(this.height, this.signedOpN);
      for (const e of op.events)
        this.eventRows.push(contractEventRow(this.height, signedId, id, e, this.trackedId(e.contract)));
    }
    if (op.ticketUpdates.length > 0) {
      this.ticketRows.push(...ticketUpdateRows(this.height, this.time, id, this.storable(op)));
    }
  }

  /** The operation's ticket updates whose amount the `amount` column holds; the others are counted (issue #51). */
  private storable(op: NormalizedOperation): TicketUpdate[] {
    return op.ticketUpdates.filter((u) => {
      if (fitsBigIntColumn(u.amount)) return true;
      const detail = { block: this.height, op: op.hash, ticketer: u.ticketer, account: u.account };
      this.indexer.undecodable('ticket_amount', detail);
      return false;
    });
  }

  /** New accounts or contracts an operation paid `origination_size` for. */
  private allocations(op: NormalizedOperation): number {
    if (!op.isSuccess) return 0;
    if (op.kind === 'origination') return op.originatedContracts.length;
    return op.allocatedDestination === true ? 1 : 0;
  }

  /** Tez entering a sapling pool (a call that changes its state) or leaving it (its internal transfers). */
  private shielding(op: NormalizedOperation): 'shield' | 'unshield' | undefined {
    if (!op.isSuccess || !TRANSACTION_TYPES.has(op.type)) return undefined;
    if (op.saplingDiffs.length > 0 && op.receiver !== undefined) {
      this.saplingPools.add(op.receiver);
      return op.volume > 0n ? 'shield' : undefined;
    }
    return op.isInternal && op.sender !== undefined && this.saplingPools.has(op.sender) && op.volume > 0n
      ? 'unshield'
      : undefined;
  }

  private applyMove(
    m: Move,
    opN: number,
    opC: number | null,
    opI: number | null,
    operation: FlowRow['operation'],
    shielding?: { kind: 'shield' | 'unshield'; sender?: string },
    delayedOpId: bigint | null = null,
  ): void {
    const tracked = this.accounts.get(m.address);
    if (!tracked) return;
    const a = tracked.data;
    if (!m.neutral && m.kind === 'contract') a.spendable_balance += m.change;
    if (!m.neutral && m.kind === 'freezer' && m.category === 'bond') {
      a.frozen_bond += m.change;
      if (m.isBurned) a.lost_bond += m.amountOut;
    }
    if (m.isBurned) a.total_burned += m.amountOut;
    this.state.supply.freeze(m);
    const counterparty = this.party(m.counterparty);
    this.flowRows.push({
      height: this.height,
      cycle: this.block.cycle,
      time: this.time,
      op_n: opN,
      op_c: opC,
      op_i: opI,
      account_id: tracked.id,
      counterparty_id: counterparty.id,
      category: m.category,
      operation,
      amount_in: m.amountIn,
      amount_out: m.amountOut,
      is_fee: m.isFee,
      is_burned: m.isBurned,
      is_frozen: m.isFrozen,
      is_unfrozen: m.isUnfrozen,
      is_shielded: shielding?.kind === 'shield' && m.change < 0n && !m.isFee && m.address === shielding.sender,
      is_unshielded: shielding?.kind === 'unshield' && m.change > 0n,
      delayed_op_id: delayedOpId,
      token_age: tracked.previouslySeen
        ? Math.max(0, Math.floor((this.time.getTime() - tracked.previouslySeen.getTime()) / 1000))
        : 0,
      address: a.address,
      counterparty: counterparty.address,
    });
  }

  /** Changes of account and contract state an operation makes, beyond its balance updates. */
  private async applyEffects(
    op: NormalizedOperation,
    storageBurn: bigint,
  ): Promise<{ called?: TrackedContract; originated?: TrackedContract; storageHash?: string | null }> {
    const sender = this.accounts.get(op.sender)?.data;
    const receiver = this.accounts.get(op.receiver)?.data;
    if (op.opL === 3 && sender) {
      if (!op.isInternal) {
        if (op.counter !== undefined && op.counter > sender.counter) sender.counter = op.counter;
        sender.total_fees_paid += op.fee;
        if (op.isContract && receiver) receiver.total_fees_used += op.fee;
      }
      if (op.isSuccess) sender.n_tx_success++;
      else sender.n_tx_failed++;
    }
    // Contract calls, and implicit results that update a contract's storage (the liquidity baking subsidy).
    const updatesContract = op.kind !== 'origination' && (op.isContract || op.storage !== undefined);
    const called = updatesContract ? await this.calledContract(op.receiver) : undefined;
    // A contract first met through another kind of operation (increase_paid_storage, a ticket
    // transfer) still gets its row and script from the node when its origination was not indexed.
    if (!updatesContract && op.kind !== 'origination' && op.isSuccess && op.receiver?.startsWith('KT1'))
      await this.calledContract(op.receiver);
    if (!op.isSuccess) {
      if (called && op.isContract) this.contracts.failedCall(called);
      return { called };
    }
    const storageHash = this.storageAfter(op, called, storageBurn);

    if (TRANSACTION_TYPES.has(op.type) && sender && receiver && op.sender !== op.receiver) {
      sender.n_tx_out++;
      sender.total_sent += op.volume;
      markTransfer(sender, 'out', this.height, this.time);
      receiver.n_tx_in++;
      receiver.total_received += op.volume;
      markTransfer(receiver, 'in', this.height, this.time);
      if (op.receiver !== undefined && BURN_ADDRESSES.has(op.receiver)) this.state.supply.burnExplicitly(op.volume);
    }
    let originated: TrackedContract | undefined;
    if (op.kind === 'origination' || op.type === 'rollup_origination')
      originated = await this.originate(op, storageBurn);
    switch (op.type) {
      case 'delegation':
        if (op.sender === op.baker) this.accounts.markBaker(op.sender);
        else if (op.sender !== undefined) {
          this.accounts.markBaker(op.baker);
          this.accounts.delegate(op.sender, op.baker);
        }
        break;
      case 'reveal':
        if (sender && typeof op.data === 'string') {
          sender.pubkey = op.data;
          sender.is_revealed = true;
        }
        break;
      case 'activation':
        if (sender) {
          sender.is_activated = true;
          sender.total_received += op.volume;
        }
        this.state.supply.activate(op.volume);
        break;
      case 'drain_delegate':
        if (sender) sender.total_sent += op.volume;
        if (receiver) receiver.total_received += op.volume;
        break;
      case 'double_baking':
      case 'double_endorsement':
      case 'double_preendorsement':
        this.accounts.markBaker(op.offender);
        break;
      case 'register_constant':
        await this.registerConstant(op);
        break;
    }
    return { called, originated, storageHash };
  }

  /** Applies a call's effects on the contract row; the storage hash after it (null when the receipt has none). */
  private storageAfter(
    op: NormalizedOperation,
    called: TrackedContract | undefined,
    storageBurn: bigint,
  ): string | null | undefined {
    if (called) {
      return this.contracts.call(called, {
        entrypoint: op.entrypoint,
        storage: op.storage,
        storageSize: op.storageSize,
        storagePaid: op.storagePaid,
        storageBurn,
        isCall: op.isContract,
      });
    }
    const receiver = this.accounts.get(op.receiver);
    if (!receiver || !op.isContract || op.storage === undefined) return undefined;
    return this.contracts.untrackedCall(receiver.data.address, receiver.id, op.storage);
  }

  /**
   * The called contract. One whose origination was not indexed (an index that starts at a later
   * level) gets its row on its first call, and one whose row has no script (bootstrap and migration
   * contracts) gets its script, both from the node: asked once per contract, and only when a node is
   * connected (archives have none).
   */
  private async calledContract(address: string | undefined): Promise<TrackedContract | undefined> {
    const known = await this.contracts.get(address);
    if ((known && known.script) || !address?.startsWith('KT1') || !this.scripts.firstNodeAsk(address)) return known;
    const state: unknown = await this.ctx.node(`context/contracts/${address}`);
    const script = isRecord(state) ? state.script : undefined;
    if (!isRecord(script)) return known;
    if (known) return this.contracts.attachScript(known, script);
    const account = this.accounts.get(address);
    if (!account) return undefined;
    const none = { storageSize: 0n, storagePaid: 0n, storageBurn: 0n };
    return this.contracts.originate({ address, accountId: account.id, script, storage: script.storage, ...none });
  }

  private async originate(op: NormalizedOperation, storageBurn: bigint): Promise<TrackedContract | undefined> {
    const addresses = op.kind === 'origination' ? op.originatedContracts : op.receiver ? [op.receiver] : [];
    const creator = this.accounts.get(op.creator ?? op.sender);
    let first: TrackedContract | undefined;
    for (const address of addresses) {
      const account = this.accounts.get(address);
      if (!account) continue;
      if (creator) {
        account.data.creator_id = creator.id;
        account.data.creator = creator.data.address;
        creator.data.total_sent += op.volume;
        account.data.total_received += op.volume;
      }
      if (op.baker !== undefined) {
        this.accounts.markBaker(op.baker);
        this.accounts.delegate(address, op.baker);
      }
      const contract = await this.contracts.originate({
        address,
        accountId: account.id,
        creator: creator && { id: creator.id, address: creator.data.address },
        script: op.script,
        storage: op.storage ?? originatedStorage(op),
        storageSize: op.storageSize ?? 0n,
        storagePaid: op.storagePaid,
        storageBurn,
      });
      if (account.isNew) {
        if (address.startsWith('KT1')) this.stats.newContracts++;
        else this.stats.newRollups++;
      }
      first ??= contract;
    }
    return first;
  }

  private async registerConstant(op: NormalizedOperation): Promise<void> {
    const creator = this.accounts.get(op.sender);
    const value = encodeMicheline(op.value);
    if (
      op.constantAddress === undefined ||
      !creator ||
      !(await this.indexer.isNewConstant(this.ctx, op.constantAddress))
    )
      return;
    this.constantRows.push({
      address: op.constantAddress,
      creator_id: creator.id,
      value: value?.toString('hex') ?? null,
      height: this.height,
      storage_size: op.storageSize ?? BigInt(value?.length ?? 0),
      features: featuresOf(op.value),
      creator: creator.data.address,
      time: this.time,
    });
  }

  /**
   * The op row's reward and deposit: for denunciations the offender's losses (negative, also the
   * fee); for other non-manager rows what the row credited from minted tez (reward) or froze (deposit).
   */
  private rewardsOf(
    op: NormalizedOperation,
    moves: readonly Move[],
  ): { reward: bigint; deposit: bigint; fee?: bigint } {
    if (op.type.startsWith('double_')) {
      const lost = { rewards: 0n, deposits: 0n, fees: 0n, balance: 0n, bond: 0n };
      for (const m of moves) if (m.address === op.offender && m.change < 0n) lost[m.category] += m.amountOut;
      return { reward: -lost.rewards, deposit: -lost.deposits, fee: -lost.fees };
    }
    if (op.opL === 3) return { reward: 0n, deposit: 0n };
    let reward = 0n;
    let deposit = 0n;
    for (const m of moves) {
      if (m.fromMint || m.category === 'rewards') reward += m.amountIn;
      else if (m.category === 'deposits') deposit += m.amountIn;
    }
    return { reward, deposit };
  }

  private addStats(op: NormalizedOperation): void {
    const s = this.stats;
    s.fee += op.fee;
    s.gasLimit += op.gasLimit;
    s.gasUsed += op.gasUsed;
    if (op.isEvent) s.nEvents++;
    if (!op.isSuccess) return;
    s.storagePaid += op.storagePaid;
    s.nTickets += op.ticketUpdates.length;
    if (op.isRollup) s.nRollupCalls++;
    if (TRANSACTION_TYPES.has(op.type) || op.type === 'origination' || op.type === 'activation') s.volume += op.volume;
  }

  /** Block-level receipts: implicit events (bake, reward, unfreeze, …), their flows and issuance. */
  private async indexBlockUpdates(): Promise<void> {
    const block = this.block;
    const { moves, issuance } = classifyBlockUpdates(
      block.balanceUpdates,
      block.consensus === 'tenderbake',
      block.cycle,
    );
    this.confirmDelegates(block.balanceUpdates);
    this.stakes.apply(block.balanceUpdates);
    // Emmy bakers collect the fees of their block frozen, through the operations' receipts.
    const bakeFees = block.consensus === 'emmy' ? this.stats.fee : 0n;
    const plan = planBlockEvents(moves, block.operations.length, block.baker, bakeFees);
    // Cycle-end slashings (Oxford+) name their denunciation: each flow is linked to its op row.
    const hashes = [...moves, ...issuance].flatMap((x) => (x.delayedOperationHash ? [x.delayedOperationHash] : []));
    const denounced = hashes.length > 0 ? await this.indexer.denunciations(this.ctx, hashes) : NO_DENUNCIATIONS;
    moves.forEach((m, i) => {
      const rowId = m.delayedOperationHash === undefined ? undefined : denounced.get(m.delayedOperationHash)?.rowId;
      if (rowId !== undefined) this.indexer.recordSlashing(this.ctx, rowId);
      this.applyMove(m, plan.opNs[i], null, null, m.cause ?? 'internal', undefined, rowId ?? null);
    });
    for (const e of plan.events) {
      this.stats.nEvents++;
      if (e.type === 'bake' || e.type === 'bonus') {
        this.stats.reward += e.reward;
        this.stats.deposit += e.deposit;
      }
      const type = this.indexer.kinds.opType(e.type).label;
      this.ctx.append(tables.op, eventRow(block, this.time, e, type, this.party(e.address)));
    }
    this.state.supply.recordBlock(issuance, (hash) => (hash === undefined ? undefined : denounced.get(hash)?.type));
    this.indexer.recordEndorsedSlots(this.ctx, block);
  }

  private blockRow(touched: number, created: number, funded: number, cleared: number): BlockRow {
    const block = this.block;
    const s = this.stats;
    const { supply } = this.state;
    const previous = this.state.time;
    const baker = this.party(block.baker);
    const proposer = this.party(block.proposer);
    const bakerKey = this.party(block.bakerConsensusKey);
    const proposerKey = this.party(block.proposerConsensusKey);
    return {
      parent_id: this.state.blockId ?? null,
      hash: block.hash,
      height: this.height,
      cycle: block.cycle,
      is_cycle_snapshot: false,
      time: this.time,
      solvetime: previous === undefined ? 0 : Math.max(0, Math.round((block.time - previous.getTime()) / 1000)),
      // The header counts protocol changes; the last block of a protocol already carries the next one's number.
      version: Math.max(0, block.proto - (block.isProtocolMigration ? 1 : 0)),
      round: block.round,
      nonce: block.powNonce?.slice(0, 16) ?? '',
      // A kind newer than this build is kept as the node sent it (the enum column stores text).
      voting_period_kind: (block.votingPeriodKind ?? 'proposal') as BlockRow['voting_period_kind'],
      baker_id: baker.id,
      proposer_id: proposer.id,
      n_endorsed_slots: this.indexer.endorsedSlots(this.ctx, block.hash),
      n_ops_applied: s.nOpsApplied,
      n_ops_failed: s.nOpsFailed,
      n_calls: s.nCalls,
      n_rollup_calls: s.nRollupCalls,
      n_events: s.nEvents,
      n_tx: s.nTx,
      n_tickets: s.nTickets,
      volume: s.volume,
      fee: s.fee,
      reward: s.reward,
      deposit: s.deposit,
      activated_supply: supply.blockActivated,
      burned_supply: supply.blockBurned,
      minted_supply: supply.blockMinted,
      n_accounts: touched,
      n_new_accounts: created,
      n_new_contracts: s.newContracts,
      n_cleared_accounts: cleared,
      n_funded_accounts: funded,
      gas_limit: s.gasLimit,
      gas_used: s.gasUsed,
      storage_paid: s.storagePaid,
      lb_esc_vote: block.lbVote ?? null,
      lb_esc_ema: block.lbEma ?? null,
      ai_vote: block.aiVote ?? null,
      ai_ema: block.aiEma ?? null,
      proposer_consensus_key_id: proposerKey.id,
      baker_consensus_key_id: bakerKey.id,
      pct_account_reuse: touched === 0 ? 0 : (100 * (touched - created)) / touched,
      baker: baker.address,
      proposer: proposer.address,
      protocol: block.protocol,
      proposer_consensus_key: proposerKey.address,
      baker_consensus_key: bakerKey.address,
      // Genesis names itself as its predecessor.
      predecessor: this.height === 0 || block.predecessor === '' ? null : block.predecessor,
    };
  }
}

/** Records a transaction in (`in`) or out (`out`) of an account: first and last height and time. */
function markTransfer(a: AccountData, direction: 'in' | 'out', height: number, time: Date): void {
  if (a[`first_${direction}`] === null) {
    a[`first_${direction}`] = height;
    a[`first_${direction}_time`] = time;
  }
  a[`last_${direction}`] = height;
  a[`last_${direction}_time`] = time;
}

/**
 * The storage an origination leaves: the script's initial storage with its big maps and sapling states as allocated.
 */
function originatedStorage(op: NormalizedOperation): unknown {
  const script = isRecord(op.script) ? op.script : undefined;
  if (script?.storage === undefined) return undefined;
  return withLazyStorageIds(section(script.code, 'storage'), script.storage, op.bigMapDiffs, op.saplingDiffs);
}
