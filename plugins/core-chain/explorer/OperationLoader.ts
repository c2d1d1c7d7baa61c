import { BlockLookup } from './BlockLookup';
import { ChainTables } from './ChainTables';
import { ContractState, OperationExtras, operationObject, OperationOptions } from './OperationObject';
import { ContractCode, michelineFromHex, whereColumnIn } from '../../../framework';
import type { OpRead } from '../tables.generated';
import { OuterSigners } from './OuterSigners';

/**
 * Turns op rows into operation objects, looking up what the rows do not hold in a few batched
 * queries per page: the outer signer of internal operations, the called or originated contracts'
 * code and storage, registered constant values, the previous delegate of delegations and the
 * publisher of revealed nonces.
 */
export class OperationLoader {
  /** All op columns, for the rows handed to `objects`. */
  readonly ops;
  private readonly outerSigners: OuterSigners;
  private readonly constants;
  private readonly delegations;
  private readonly storages;
  // Lookups by keys, compiled once (prepared on Postgres) and made together with concurrent requests'.
  private readonly contractsAt;
  private readonly eventsOf;
  private readonly ticketsOf;
  private readonly bakersAt;

  constructor(
    tables: ChainTables,
    private readonly blocks: BlockLookup,
  ) {
    this.ops = tables.rows('op');
    this.outerSigners = new OuterSigners(tables.rows('op', ['hash', 'height', 'op_n', 'sender']));
    const contracts = tables.rows('contract', ['address', 'script', 'storage', 'storage_hash']);
    this.contractsAt = contracts.batched(
      (q, addresses) => q.where(contracts.anyOf('address', addresses)),
      (c) => [c.address],
    );
    this.constants = tables.rows('constant', ['height', 'creator', 'value']);
    this.delegations = tables.rows('op', ['type', 'sender', 'receiver', 'height', 'op_n', 'baker']);
    const bakers = tables.rows('block', ['height', 'baker']);
    this.bakersAt = bakers.batched(
      (q, heights) => q.where(bakers.anyOf('height', heights)).where('is_orphan', false),
      (b) => [b.height],
    );
    const events = tables.rows('event', [
      'row_id',
      'account_id',
      'height',
      'op_id',
      'event_op_id',
      'contract',
      'type',
      'payload',
      'tag',
      'type_hash',
    ]);
    this.eventsOf = events.batched(
      (q, ids) =>
        q.where((w) => w.where(events.anyOf('op_id', ids)).orWhere(events.anyOf('event_op_id', ids))).orderBy('row_id'),
      (e) => [e.op_id, e.event_op_id],
    );
    const tickets = tables.rows('ticket_update', [
      'row_id',
      'op_id',
      'ticketer',
      'type',
      'content',
      'account',
      'amount',
    ]);
    this.ticketsOf = tickets.batched(
      (q, ids) => q.where(tickets.anyOf('op_id', ids)).orderBy('row_id'),
      (t) => [t.op_id],
    );
    this.storages = tables.rows('storage', ['contract', 'hash', 'storage', 'height']);
  }

  async objects(rows: readonly OpRead[], options: OperationOptions): Promise<Record<string, unknown>[]> {
    if (rows.length === 0) return [];
    const [head, sources, contracts, constants, seeds, events, tickets, storages] = await Promise.all([
      this.blocks.headHeight(),
      this.outerSigners.of(rows),
      this.contractStates(rows),
      this.constantValues(rows),
      this.seedPublishers(rows),
      this.contractEvents(rows),
      this.ticketUpdates(rows),
      options.storage ? this.storagesAfter(rows) : new Map<string, unknown>(),
    ]);
    const previous = await this.previousBakers(rows);
    return rows.map((row) => {
      const extras: OperationExtras = {};
      const key = rowKey(row);
      extras.source = sources.get(row);
      extras.previousBaker = previous.get(key);
      if (constants.has(key)) extras.constantValue = constants.get(key);
      if (row.type === 'nonce_revelation') extras.seedPublisher = seeds.get(revealedLevel(row) ?? -1);
      const contract = row.receiver === null ? undefined : contracts.get(row.receiver);
      if (contract && (row.is_contract || row.type === 'origination')) extras.contract = contract;
      extras.events = events.get(row.id);
      extras.ticketUpdates = tickets.get(row.id);
      extras.storageAfter = storages.get(
        `${row.receiver}:${row.type === 'origination' ? 'origination' : row.storage_hash}`,
      );
      return operationObject(row, extras, head, options);
    });
  }

  private async contractStates(rows: readonly OpRead[]): Promise<Map<string, ContractState>> {
    const addresses = [
      ...new Set(rows.filter((r) => r.is_contract || r.type === 'origination').flatMap((r) => r.receiver ?? [])),
    ];
    const out = new Map<string, ContractState>();
    if (addresses.length === 0) return out;
    for (const c of await this.contractsAt(addresses)) {
      out.set(c.address, {
        code: ContractCode.fromScriptHex(c.script),
        storage: michelineFromHex(c.storage),
        storageHash: c.storage_hash,
      });
    }
    return out;
  }

  /**
   * Values of applied register_constant rows. The constant table has no op reference: its rows of a
   * height and creator are matched in order with that sender's applied registrations at that height.
   */
  private async constantValues(rows: readonly OpRead[]): Promise<Map<string, unknown>> {
    const registrations = rows.filter((r) => r.type === 'register_constant' && r.is_success);
    const out = new Map<string, unknown>();
    if (registrations.length === 0) return out;
    const heights = [...new Set(registrations.map((r) => Number(r.height)))];
    const constants = await this.constants.read(this.constants.query().whereIn('height', heights).orderBy('row_id'));
    const ops = await this.ops.read(
      this.ops
        .query()
        .whereIn('height', heights)
        .where({ type: this.ops.table.column('type')!.type.parse('register_constant'), is_success: true })
        .orderBy([{ column: 'height' }, { column: 'op_n' }]),
    );
    for (const r of registrations) {
      const same = (x: (typeof constants)[number]): boolean => x.height === r.height && x.creator === r.sender;
      const index = ops
        .filter((o) => o.height === r.height && o.sender === r.sender)
        .findIndex((o) => o.op_n === r.op_n);
      const constant = constants.filter(same)[index];
      if (constant) out.set(rowKey(r), michelineFromHex(constant.value) ?? null);
    }
    return out;
  }

  /**
   * The delegate an account had before each delegation row: the baker of its latest earlier applied
   * delegation, or of its origination. Unknown (left out) when that happened before the first indexed block.
   */
  private async previousBakers(rows: readonly OpRead[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const delegations = rows.filter((x) => x.type === 'delegation' && x.sender !== null);
    if (delegations.length === 0) return out;
    // Every earlier delegation or origination of these accounts, in one query (accounts have few).
    const accounts = [...new Set(delegations.flatMap((r) => r.sender ?? []))];
    const upTo = Math.max(...delegations.map((r) => Number(r.height)));
    const op = this.delegations.table;
    const type = op.column('type')!.type;
    const q = this.delegations
      .query()
      .where('is_success', true)
      .where((w) =>
        w
          .where((d) => whereColumnIn(d.where('type', type.parse('delegation')), op.column('sender')!, accounts))
          .orWhere((o) => whereColumnIn(o.where('type', type.parse('origination')), op.column('receiver')!, accounts)),
      )
      .where('height', '<=', upTo)
      .orderBy([{ column: 'height' }, { column: 'op_n' }]);
    const history = await this.delegations.read(q);
    type Delegation = (typeof history)[number];
    const accountOf = (h: Delegation): string | null => (h.type === 'delegation' ? h.sender : h.receiver);
    for (const r of delegations) {
      const before = (h: Delegation): boolean => h.height < r.height || (h.height === r.height && h.op_n < r.op_n);
      const previous = history.filter((h) => accountOf(h) === r.sender && before(h)).pop();
      if (previous?.baker != null) out.set(rowKey(r), previous.baker);
    }
    return out;
  }

  /**
   * Contract events by op id: under the signed operation that caused them and under the internal
   * `event` operation that emitted each.
   */
  private async contractEvents(rows: readonly OpRead[]): Promise<Map<OpId, Record<string, unknown>[]>> {
    const ids = eventOpIds(rows);
    const out = new Map<OpId, Record<string, unknown>[]>();
    if (ids.length === 0) return out;
    for (const e of await this.eventsOf(ids)) {
      // Ids as the TzPro SDK's Event reads them, then the spec's fields.
      const event = {
        row_id: e.row_id,
        account_id: e.account_id,
        height: e.height,
        op_id: e.op_id,
        contract: e.contract,
        type: michelineFromHex(e.type),
        payload: michelineFromHex(e.payload) ?? null,
        tag: e.tag,
        type_hash: e.type_hash,
      };
      for (const id of new Set([e.op_id, e.event_op_id])) append(out, id, event);
    }
    return out;
  }

  /**
   * The storage each contract call left, from the storage history, by `contract:hash`; and the
   * storage each origination left (its big maps allocated), by `contract:origination`.
   */
  private async storagesAfter(rows: readonly OpRead[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    const calls = rows.filter((r) => r.is_contract && r.storage_hash !== null && r.receiver !== null);
    if (calls.length > 0) {
      const contracts = [...new Set(calls.flatMap((r) => r.receiver ?? []))];
      const hashes = [...new Set(calls.flatMap((r) => r.storage_hash ?? []))].map((h) => Buffer.from(h, 'hex'));
      for (const s of await this.storages.read(
        this.storages.query().whereIn('contract', contracts).whereIn('hash', hashes),
      )) {
        out.set(`${s.contract}:${s.hash}`, michelineFromHex(s.storage));
      }
    }
    const originations = rows.filter((r) => r.type === 'origination' && r.is_success && r.receiver !== null);
    if (originations.length > 0) {
      const bornAt = new Map(
        originations.flatMap((r): [string, number][] => (r.receiver === null ? [] : [[r.receiver, Number(r.height)]])),
      );
      const q = this.storages
        .query()
        .whereIn('contract', [...bornAt.keys()])
        .whereIn('height', [...new Set(bornAt.values())]);
      // The first storage of the contract at its origination height is the one the origination left.
      for (const s of await this.storages.read(q.orderBy('row_id', 'desc'))) {
        if (bornAt.get(s.contract) === Number(s.height))
          out.set(`${s.contract}:origination`, michelineFromHex(s.storage));
      }
    }
    return out;
  }

  /** Ticket balance changes by op id of the (internal) operation whose receipt lists them. */
  private async ticketUpdates(rows: readonly OpRead[]): Promise<Map<OpId, Record<string, unknown>[]>> {
    const ids = ticketOpIds(rows);
    const out = new Map<OpId, Record<string, unknown>[]>();
    if (ids.length === 0) return out;
    for (const t of await this.ticketsOf(ids)) {
      append(out, t.op_id, {
        id: t.row_id,
        ticketer: t.ticketer,
        type: michelineFromHex(t.type),
        content: michelineFromHex(t.content),
        account: t.account,
        amount: t.amount,
      });
    }
    return out;
  }

  /** Bakers of the blocks whose seed nonces the page's nonce revelations reveal, by height. */
  private async seedPublishers(rows: readonly OpRead[]): Promise<Map<number, string>> {
    const levels = [...new Set(rows.map(revealedLevel).filter((l): l is number => l !== undefined))];
    const out = new Map<number, string>();
    if (levels.length === 0) return out;
    for (const b of await this.bakersAt(levels)) {
      if (b.baker !== null) out.set(Number(b.height), b.baker);
    }
    return out;
  }
}

// Rows whose receipt may list ticket updates; events also need contract code to run (or are the event row).
const TICKET_MOVERS = new Set(['transaction', 'transfer_ticket', 'rollup_transaction', 'origination']);

/** An op row's id (`id`, `op_id` columns), as read. */
type OpId = OpRead['id'];

const applied = (r: OpRead): boolean => r.op_l === 3 && r.is_success;

/** Op ids of the applied rows that can carry events: contract events, and signed operations that ran contract code. */
function eventOpIds(rows: readonly OpRead[]): string[] {
  const ranCode = (r: OpRead): boolean =>
    !r.is_internal && (r.is_contract || r.type === 'transfer_ticket' || r.type === 'rollup_transaction');
  return rows.filter((r) => applied(r) && (r.type === 'event' || ranCode(r))).map((r) => String(r.id));
}

function ticketOpIds(rows: readonly OpRead[]): string[] {
  return rows.filter((r) => applied(r) && TICKET_MOVERS.has(r.type)).map((r) => String(r.id));
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function rowKey(row: Pick<OpRead, 'height' | 'op_n'>): string {
  return `${row.height}:${row.op_n}`;
}

/** The level of a nonce revelation (`data` = "<level>,<nonce>"). */
function revealedLevel(row: OpRead): number | undefined {
  if (row.type !== 'nonce_revelation' || row.data === null) return undefined;
  const level = Number(row.data.split(',')[0]);
  return Number.isSafeInteger(level) && level >= 0 ? level : undefined;
}
