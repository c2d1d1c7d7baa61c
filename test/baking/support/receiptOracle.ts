import type { Json } from '../../chain/support/Json';

/** Income columns the oracle sums, per `cycle_address`, in mutez. */
export type OracleIncome = Map<string, Record<string, bigint>>;

const PAID_BY: Record<string, string> = {
  'baking rewards': 'baking_income',
  'baking bonuses': 'baking_income',
  'endorsing rewards': 'endorsing_income',
  'attesting rewards': 'endorsing_income',
  'block fees': 'fees_income',
  'nonce revelation rewards': 'seed_income',
  'double signing evidence rewards': 'accusation_income',
};

/** Whose balance a raw credit moves: a contract, or the baker whose (own or pooled) stake it is. */
function owner(u: Json): string | undefined {
  if (u.kind === 'contract') return u.contract;
  if (u.kind !== 'freezer') return undefined;
  const s = u.staker ?? {};
  return s.baker_own_stake ?? s.baker_edge ?? s.baker ?? s.delegate ?? u.delegate ?? s.contract;
}

/**
 * The test's own reading of raw receipts (lone freezer credits before Ithaca, then debit/credit pairs): every mint or
 * fee accumulator debit paid to a contract or a freezer is that owner's income of the block's cycle, by the mint's
 * category; a contract debit into a freezer `deposits` credit is a deposit.
 */
export function oracleIncome(blocks: readonly Json[]): OracleIncome {
  const out: OracleIncome = new Map();
  const add = (cycle: number, who: string | undefined, column: string, amount: bigint): void => {
    if (!who) return;
    const key = `${cycle}_${who}`;
    const row = out.get(key) ?? {};
    row[column] = (row[column] ?? 0n) + amount;
    out.set(key, row);
  };
  for (const b of blocks) {
    if (!b.metadata || b.header.level === 0) continue;
    const cycle: number = (b.metadata.level_info ?? b.metadata.level).cycle;
    const lists: Array<[string, Json[]]> = [['block', b.metadata.balance_updates ?? []]];
    for (const pass of b.operations)
      for (const op of pass) for (const c of op.contents) lists.push([c.kind, c.metadata?.balance_updates ?? []]);
    for (const [kind, list] of lists) {
      // Before Ithaca rewards and fees are lone freezer credits: the block's reward is baking, an endorsement's
      // endorsing.
      for (const u of list)
        if (u.kind === 'freezer' && BigInt(u.change) > 0n && (u.category === 'rewards' || u.category === 'fees'))
          add(
            cycle,
            u.delegate,
            u.category === 'fees'
              ? 'fees_income'
              : kind === 'block'
                ? 'baking_income'
                : kind.startsWith('endorsement')
                  ? 'endorsing_income'
                  : 'other',
            BigInt(u.change),
          );
      for (let i = 1; i < list.length; i++) {
        const [debit, credit] = [list[i - 1], list[i]];
        if (BigInt(debit.change) >= 0n || BigInt(debit.change) !== -BigInt(credit.change)) continue;
        const amount = BigInt(credit.change);
        if ((debit.kind === 'minted' || debit.kind === 'accumulator') && PAID_BY[debit.category])
          add(cycle, owner(credit), PAID_BY[debit.category], amount);
        else if (debit.kind === 'contract' && credit.kind === 'freezer' && credit.category === 'deposits')
          add(cycle, owner(credit), 'total_deposits', amount);
      }
    }
  }
  return out;
}
