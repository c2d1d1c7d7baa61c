import type { BalanceUpdate, NormalizedBlock, NormalizedOperation } from '../../framework';

/** The money columns of an income row that receipts fill. */
export const INCOME_MONEY = [
  'total_deposits',
  'baking_income',
  'endorsing_income',
  'accusation_income',
  'seed_income',
  'fees_income',
  'accusation_loss',
  'seed_loss',
  'endorsing_loss',
  'lost_accusation_fees',
  'lost_accusation_rewards',
  'lost_accusation_deposits',
  'lost_seed_fees',
  'lost_seed_rewards',
] as const;
export type IncomeMoney = (typeof INCOME_MONEY)[number];

/** Where a balance update came from: the block itself or one operation type. */
type Source = 'block' | string;

const REWARD_COLUMN: Readonly<Record<string, IncomeMoney>> = {
  'baking rewards': 'baking_income',
  'baking bonuses': 'baking_income',
  'attesting rewards': 'endorsing_income',
  'block fees': 'fees_income',
  'nonce revelation rewards': 'seed_income',
  'double signing evidence rewards': 'accusation_income',
};

/** Pre-Ithaca freezer `rewards`: what they reward depends on who paid them. */
function frozenRewardColumn(source: Source): IncomeMoney {
  if (source === 'endorsement') return 'endorsing_income';
  if (source === 'nonce_revelation') return 'seed_income';
  if (source === 'double_baking' || source === 'double_endorsement' || source === 'double_preendorsement')
    return 'accusation_income';
  return 'baking_income';
}

const MINT_KINDS = new Set(['minted', 'accumulator']);
const DENUNCIATIONS = new Set(['double_baking', 'double_endorsement', 'double_preendorsement']);
const LOST_BY_FREEZER: Readonly<Record<string, IncomeMoney>> = {
  deposits: 'lost_accusation_deposits',
  rewards: 'lost_accusation_rewards',
  fees: 'lost_accusation_fees',
};

/** One amount for one baker, to add to its income row of the block's cycle. */
export interface IncomeEntry {
  baker: string;
  column: IncomeMoney;
  amount: bigint;
}

/**
 * Reads what a list of balance updates means for baker income. The node writes them as
 * (debit, credit) pairs since Ithaca: a credit's reward kind is the category of the mint that paid it
 * (`minted: baking rewards` → `contract` or `freezer: deposits` of the baker or its stakers' pool);
 * before Ithaca rewards and fees are single freezer credits. Deposits are credits to the freezer taken
 * from a contract; losses are the `lost attesting rewards` sink (for a seed nonce not revealed or
 * too little participation) and freezer debits in denunciations
 * (or, since Paris, debits paid into `punishments` at cycle end).
 */
export function incomeEntries(updates: readonly BalanceUpdate[], source: Source): IncomeEntry[] {
  const out: IncomeEntry[] = [];
  updates.forEach((u, i) => {
    if (u.isPseudotoken) return;
    const prev = i > 0 ? updates[i - 1] : undefined;
    const paidBy = prev && prev.change === -u.change ? prev : undefined;
    if (u.change > 0n) {
      if (u.category === 'lost attesting rewards' && u.delegate) return out.push(...attestingLoss(u.delegate, u));
      if (!u.account || (u.kind !== 'contract' && u.kind !== 'freezer')) return;
      const minted = paidBy && MINT_KINDS.has(paidBy.kind) ? REWARD_COLUMN[paidBy.category ?? ''] : undefined;
      if (minted) return out.push({ baker: u.account, column: minted, amount: u.change });
      if (u.kind !== 'freezer') return;
      if (u.category === 'rewards')
        return out.push({ baker: u.account, column: frozenRewardColumn(source), amount: u.change });
      if (u.category === 'fees') return out.push({ baker: u.account, column: 'fees_income', amount: u.change });
      if (u.category === 'deposits' && paidBy?.kind === 'contract')
        return out.push({ baker: u.account, column: 'total_deposits', amount: u.change });
      return;
    }
    const next = updates[i + 1];
    const punished = next?.category === 'punishments' || next?.category === 'double signing punishments';
    if (u.change < 0n && u.kind === 'freezer' && u.account && (punished || DENUNCIATIONS.has(source))) {
      const column = LOST_BY_FREEZER[u.category ?? ''];
      if (column) out.push({ baker: u.account, column, amount: -u.change });
      out.push({ baker: u.account, column: 'accusation_loss', amount: -u.change });
    }
  });
  return out;
}

/**
 * Attesting rewards lost at a cycle end (Ithaca+). The node flags why: participation too low, or a
 * committed seed nonce not revealed (`participation: true, revelation: false`), which is a seed loss.
 */
function attestingLoss(baker: string, u: BalanceUpdate): IncomeEntry[] {
  if (u.revelation === false && u.participation !== false)
    return [
      { baker, column: 'seed_loss', amount: u.change },
      { baker, column: 'lost_seed_rewards', amount: u.change },
    ];
  return [{ baker, column: 'endorsing_loss', amount: u.change }];
}

/** Every income entry of a block: its own updates and those of its operations. */
export function blockIncome(block: NormalizedBlock): IncomeEntry[] {
  const out = incomeEntries(block.balanceUpdates, 'block');
  for (const op of block.operations)
    if (op.balanceUpdates.length) out.push(...incomeEntries(op.balanceUpdates, opSource(op)));
  return out;
}

function opSource(op: NormalizedOperation): Source {
  return op.isEvent ? 'block' : op.type;
}
