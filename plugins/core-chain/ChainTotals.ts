import { bigOrZero, type Row } from '../../framework';
import type { AccountChanges } from './AccountBook';
import { isImplicitType } from './addressType';

/** Counters summed over operations (running totals). */
const OPERATION_COUNTERS = [
  'total_accounts',
  'total_contracts',
  'total_rollups',
  'total_ops',
  'total_ops_failed',
  'total_contract_ops',
  'total_contract_calls',
  'total_rollup_calls',
  'total_activations',
  'total_nonce_revelations',
  'total_endorsements',
  'total_preendorsements',
  'total_double_bakings',
  'total_double_endorsements',
  'total_delegations',
  'total_reveals',
  'total_originations',
  'total_transactions',
  'total_proposals',
  'total_ballots',
  'total_constants',
  'total_set_limits',
  'total_storage_bytes',
  'total_ticket_transfers',
] as const;

/** Counters of the current account state. */
const STATE_COUNTERS = [
  'funded_accounts',
  'dust_accounts',
  'ghost_accounts',
  'unclaimed_accounts',
  'total_delegators',
  'active_delegators',
  'inactive_delegators',
  'dust_delegators',
  'total_bakers',
  'active_bakers',
  'inactive_bakers',
  'zero_bakers',
  'self_bakers',
  'single_bakers',
  'multi_bakers',
  'rolls',
  'roll_owners',
] as const;

export type ChainCounter = (typeof OPERATION_COUNTERS)[number] | (typeof STATE_COUNTERS)[number];

// Successful operations of these op table types count into these totals.
const COUNTER_BY_TYPE: Readonly<Record<string, ChainCounter>> = {
  activation: 'total_activations',
  nonce_revelation: 'total_nonce_revelations',
  endorsement: 'total_endorsements',
  preendorsement: 'total_preendorsements',
  double_baking: 'total_double_bakings',
  double_endorsement: 'total_double_endorsements',
  double_preendorsement: 'total_double_endorsements',
  delegation: 'total_delegations',
  reveal: 'total_reveals',
  origination: 'total_originations',
  transaction: 'total_transactions',
  proposal: 'total_proposals',
  ballot: 'total_ballots',
  register_constant: 'total_constants',
  deposits_limit: 'total_set_limits',
  transfer_ticket: 'total_ticket_transfers',
};

/** What the chain totals need to know about one stored operation row. */
export interface CountedOperation {
  type: string;
  isSuccess: boolean;
  isEvent: boolean;
  isInternal: boolean;
  isContract: boolean;
  isRollup: boolean;
  hasParameters: boolean;
  storagePaid: bigint;
}

/**
 * The `chain` table's running totals. Operation counters add up the stored op rows; state counters
 * follow the account transitions of each block, with the per-baker delegator counts kept alongside.
 */
export class ChainTotals {
  private readonly values = new Map<ChainCounter, bigint>();

  constructor(
    /** Funded delegators per baker account id. */
    readonly delegatorsPerBaker: Map<bigint, number> = new Map(),
  ) {
    for (const c of [...OPERATION_COUNTERS, ...STATE_COUNTERS]) this.values.set(c, 0n);
  }

  /** Continues from a stored `chain` row. */
  static fromRow(row: Row, delegatorsPerBaker: Map<bigint, number>): ChainTotals {
    const totals = new ChainTotals(delegatorsPerBaker);
    for (const c of totals.values.keys()) totals.values.set(c, bigOrZero(row[c]));
    return totals;
  }

  get(counter: ChainCounter): bigint {
    return this.values.get(counter) ?? 0n;
  }

  add(counter: ChainCounter, n: bigint | number): void {
    this.values.set(counter, this.get(counter) + BigInt(n));
  }

  countOperation(op: CountedOperation): void {
    if (op.isEvent) return;
    if (!op.isSuccess) {
      this.add('total_ops_failed', 1);
      return;
    }
    this.add('total_ops', 1);
    this.add('total_storage_bytes', op.storagePaid);
    if (op.isContract) this.add('total_contract_ops', 1);
    if (op.isContract && !op.isInternal && op.hasParameters) this.add('total_contract_calls', 1);
    if (op.isRollup) this.add('total_rollup_calls', 1);
    const counter = COUNTER_BY_TYPE[op.type];
    if (counter) this.add(counter, 1);
  }

  applyAccountChanges(changes: AccountChanges, newContracts: number, newRollups: number): void {
    this.add('total_accounts', changes.created.filter((a) => isImplicitType(a.data.address_type)).length);
    this.add('total_contracts', newContracts);
    this.add('total_rollups', newRollups);
    this.add('funded_accounts', changes.funded - changes.cleared);
    this.add('dust_accounts', changes.dustDelta);
    this.add('ghost_accounts', changes.ghostDelta);
    this.add('dust_delegators', changes.dustDelegatorsDelta);
    this.add('total_bakers', changes.bakersDelta);
    for (const [baker, delta] of changes.delegators) {
      const n = (this.delegatorsPerBaker.get(baker) ?? 0) + delta;
      if (n > 0) this.delegatorsPerBaker.set(baker, n);
      else this.delegatorsPerBaker.delete(baker);
      this.add('total_delegators', delta);
    }
    // Baker activity is not tracked (no baker table yet): every registered baker counts as active.
    let single = 0;
    let multi = 0;
    for (const n of this.delegatorsPerBaker.values()) {
      if (n === 1) single++;
      else if (n > 1) multi++;
    }
    const bakers = this.get('total_bakers');
    this.values.set('active_bakers', bakers);
    this.values.set('active_delegators', this.get('total_delegators'));
    this.values.set('single_bakers', BigInt(single));
    this.values.set('multi_bakers', BigInt(multi));
    this.values.set('self_bakers', bakers - BigInt(single + multi) > 0n ? bakers - BigInt(single + multi) : 0n);
  }

  /**
   * Every counter (the constructor sets each): the chain row's columns, checked against the generated ChainRow where it
   * is appended.
   */
  row(): Record<ChainCounter, bigint> {
    return Object.fromEntries(this.values) as Record<ChainCounter, bigint>;
  }
}
