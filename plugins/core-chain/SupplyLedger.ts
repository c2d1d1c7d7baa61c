import { bigOrZero, type Row } from '../../framework';
import type { Issuance, Move } from './BalanceMoves';

const SUPPLY_COLUMNS = [
  'total',
  'activated',
  'unclaimed',
  'circulating',
  'liquid',
  'delegated',
  'staking',
  'shielded',
  'active_stake',
  'active_delegated',
  'active_staking',
  'inactive_delegated',
  'inactive_staking',
  'minted',
  'minted_baking',
  'minted_endorsing',
  'minted_seeding',
  'minted_airdrop',
  'minted_subsidy',
  'burned',
  'burned_double_baking',
  'burned_double_endorse',
  'burned_origination',
  'burned_allocation',
  'burned_seed_miss',
  'burned_storage',
  'burned_explicit',
  'burned_absence',
  'burned_rollup',
  'frozen',
  'frozen_deposits',
  'frozen_rewards',
  'frozen_fees',
  'frozen_bonds',
] as const;

type SupplyColumn = (typeof SUPPLY_COLUMNS)[number];

/** Bytes an origination or a new implicit account costs on top of its storage (protocol `origination_size`). */
const ORIGINATION_SIZE = 257n;

const MINT_BY_CATEGORY: Readonly<Record<string, SupplyColumn>> = {
  'baking rewards': 'minted_baking',
  'baking bonuses': 'minted_baking',
  'attesting rewards': 'minted_endorsing',
  'DAL attesting rewards': 'minted_endorsing',
  'nonce revelation rewards': 'minted_seeding',
  subsidy: 'minted_subsidy',
  invoice: 'minted_airdrop',
  bootstrap: 'minted_airdrop',
  minted: 'minted_airdrop',
};

// Emmy receipts only show a net credit: the operation type tells what was minted.
const MINT_BY_TYPE: Readonly<Record<string, SupplyColumn>> = {
  endorsement: 'minted_endorsing',
  nonce_revelation: 'minted_seeding',
  vdf_revelation: 'minted_seeding',
  subsidy: 'minted_subsidy',
  migration: 'minted_airdrop',
};

const ROLLUP_BURNS = new Set(['tx_rollup_rejection_punishments', 'smart_rollup_refutation_punishments']);

/** Where a penalty burn goes, by the denunciation's op type. */
function penaltyColumn(denouncedType: string | undefined): SupplyColumn {
  return denouncedType === 'double_baking' ? 'burned_double_baking' : 'burned_double_endorse';
}

/** What an operation row tells about its burns. */
export interface BurnScope {
  /** Normalized operation type. */
  type: string;
  isRollup: boolean;
  /** New accounts or contracts the operation paid `origination_size` for. */
  allocations: number;
  storagePaid: bigint;
}

/**
 * The `supply` table's running totals. Every `minted`/`burned` entry of a receipt is attributed to a
 * column by its category (or, for Emmy receipts that only show a net effect, by the operation type);
 * frozen sub-balances follow the freezer moves; delegated and staking balances follow the accounts.
 */
export class SupplyLedger {
  private readonly values = new Map<SupplyColumn, bigint>();
  /** Minted and burned in the current block (the block row's minted_supply/burned_supply). */
  blockMinted = 0n;
  blockBurned = 0n;
  blockActivated = 0n;
  /** The bakers' own spendable balances (staking = these + delegated + frozen deposits). */
  private bakerBalances = 0n;

  constructor() {
    for (const c of SUPPLY_COLUMNS) this.values.set(c, 0n);
  }

  static fromRow(row: Row): SupplyLedger {
    const ledger = new SupplyLedger();
    for (const c of SUPPLY_COLUMNS) ledger.values.set(c, bigOrZero(row[c]));
    ledger.bakerBalances = ledger.get('staking') - ledger.get('delegated') - ledger.get('frozen_deposits');
    return ledger;
  }

  get(column: SupplyColumn): bigint {
    return this.values.get(column) ?? 0n;
  }

  private add(column: SupplyColumn, amount: bigint): void {
    this.values.set(column, this.get(column) + amount);
  }

  beginBlock(): void {
    this.blockMinted = 0n;
    this.blockBurned = 0n;
    this.blockActivated = 0n;
  }

  private mint(amount: bigint, column: SupplyColumn | undefined): void {
    this.add('minted', amount);
    if (column) this.add(column, amount);
    this.blockMinted += amount;
  }

  private burn(amount: bigint, column: SupplyColumn | undefined): void {
    this.add('burned', amount);
    if (column) this.add(column, amount);
    this.blockBurned += amount;
  }

  /** Issuance of one operation row. Storage burns are split into origination, allocation and storage. */
  recordOperation(issuance: readonly Issuance[], scope: BurnScope): void {
    let storageBurn = 0n;
    for (const i of issuance) {
      if (i.kind === 'mint') {
        // An Emmy activation credits funds that existed as commitments since genesis: not a mint.
        if (scope.type === 'activation') continue;
        this.mint(i.amount, (i.category && MINT_BY_CATEGORY[i.category]) || MINT_BY_TYPE[scope.type]);
      } else if (scope.isRollup || ROLLUP_BURNS.has(i.category ?? '')) {
        this.burn(i.amount, 'burned_rollup');
      } else if (scope.type.startsWith('double_')) {
        this.burn(i.amount, penaltyColumn(scope.type));
      } else if (i.category === undefined || i.category === 'storage fees') {
        storageBurn += i.amount;
      } else {
        this.burn(i.amount, undefined);
      }
    }
    if (storageBurn === 0n) return;
    const allocation = allocationBurn(storageBurn, scope.storagePaid, scope.allocations);
    const isOrigination = scope.type === 'origination';
    if (allocation > 0n) this.burn(allocation, isOrigination ? 'burned_origination' : 'burned_allocation');
    if (storageBurn > allocation) this.burn(storageBurn - allocation, 'burned_storage');
  }

  /** Issuance of block-level receipts; `denounced` names the op type of a delayed slashing's denunciation. */
  recordBlock(issuance: readonly Issuance[], denounced: (hash: string | undefined) => string | undefined): void {
    for (const i of issuance) {
      if (i.kind === 'mint') {
        this.mint(i.amount, i.category ? MINT_BY_CATEGORY[i.category] : undefined);
        continue;
      }
      switch (i.category) {
        case 'lost attesting rewards':
          this.burn(
            i.amount,
            i.revelation === true && i.participation !== true ? 'burned_seed_miss' : 'burned_absence',
          );
          break;
        case 'lost DAL attesting rewards':
          this.burn(i.amount, 'burned_absence');
          break;
        case 'seed slash':
          this.burn(i.amount, 'burned_seed_miss');
          break;
        case 'punishments':
          this.burn(i.amount, penaltyColumn(denounced(i.delayedOperationHash)));
          break;
        default:
          this.burn(i.amount, ROLLUP_BURNS.has(i.category ?? '') ? 'burned_rollup' : undefined);
      }
    }
  }

  /** Tez sent to a burn address: gone for good, though an account holds them. */
  burnExplicitly(amount: bigint): void {
    this.burn(amount, 'burned_explicit');
  }

  activate(amount: bigint): void {
    this.add('activated', amount);
    this.blockActivated += amount;
  }

  shield(delta: bigint): void {
    this.add('shielded', delta);
  }

  /** Frozen sub-balances follow every freezer move. */
  freeze(m: Move): void {
    if (m.kind !== 'freezer' || m.neutral) return;
    const column: SupplyColumn =
      m.category === 'rewards'
        ? 'frozen_rewards'
        : m.category === 'fees'
          ? 'frozen_fees'
          : m.category === 'bond'
            ? 'frozen_bonds'
            : 'frozen_deposits';
    this.add(column, m.change);
  }

  /**
   * Closes the block: totals and the balances that depend on accounts. Unclaimed fundraiser funds are
   * unknown without the genesis commitments, so they enter `total` when activated.
   */
  finishBlock(delegatedDelta: bigint, bakerBalanceDelta: bigint): void {
    this.bakerBalances += bakerBalanceDelta;
    this.add('delegated', delegatedDelta);
    const frozen =
      this.get('frozen_deposits') + this.get('frozen_rewards') + this.get('frozen_fees') + this.get('frozen_bonds');
    this.values.set('frozen', frozen);
    this.values.set('staking', this.bakerBalances + this.get('delegated') + this.get('frozen_deposits'));
    this.values.set('total', this.get('minted') - this.get('burned') + this.get('activated'));
    this.values.set('unclaimed', 0n);
    this.values.set('circulating', this.get('total') - this.get('unclaimed'));
    this.values.set('liquid', this.get('circulating') - frozen);
    // Baker activity is not tracked yet: everything counts as active.
    this.values.set('active_delegated', this.get('delegated'));
    this.values.set('active_staking', this.get('staking'));
    this.values.set('active_stake', this.get('staking'));
    this.values.set('inactive_delegated', 0n);
    this.values.set('inactive_staking', 0n);
  }

  /**
   * Every column (the constructor sets each): the supply row, checked against the generated SupplyRow where it is
   * appended.
   */
  row(): Record<SupplyColumn, bigint> {
    return Object.fromEntries(this.values) as Record<SupplyColumn, bigint>;
  }
}

/**
 * The part of a storage burn paid for `origination_size` bytes. The burn is (257 × allocations +
 * storage bytes) × cost per byte, so the cost per byte follows from the receipt itself; a burn that
 * does not divide evenly is counted as storage.
 */
export function allocationBurn(burn: bigint, storagePaid: bigint, allocations: number): bigint {
  if (allocations <= 0 || burn <= 0n) return 0n;
  const bytes = ORIGINATION_SIZE * BigInt(allocations) + storagePaid;
  if (burn % bytes !== 0n) return 0n;
  return ORIGINATION_SIZE * BigInt(allocations) * (burn / bytes);
}
