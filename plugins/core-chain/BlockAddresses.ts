import type { BalanceUpdate, NormalizedBlock } from '../../framework';

/**
 * Every address a block mentions, each once, in the order of first mention: new accounts get their
 * ids in this order (the same on every instance), and a batch reads its accounts' rows ahead by it.
 */
export function blockAddresses(block: NormalizedBlock): string[] {
  const addresses = new Set<string>();
  const add = (a: string | undefined): void => {
    if (a) addresses.add(a);
  };
  // Added one by one, no list per operation: a block's attestations are most of its operations.
  const addUpdates = (updates: readonly BalanceUpdate[]): void => {
    for (const u of updates) {
      add(u.kind === 'burned' ? u.delegate : u.account);
      add(u.staker?.delegate);
    }
  };
  add(block.baker);
  add(block.proposer);
  add(block.bakerConsensusKey);
  add(block.proposerConsensusKey);
  for (const op of block.operations) {
    const originates = op.kind === 'origination' || op.type === 'rollup_origination';
    add(op.sender);
    if (!originates || op.isSuccess) add(op.receiver);
    add(op.creator);
    add(op.baker);
    add(op.accuser);
    add(op.offender);
    if (op.isSuccess) for (const c of op.originatedContracts) add(c);
    addUpdates(op.balanceUpdates);
    addUpdates(op.resultBalanceUpdates);
  }
  addUpdates(block.balanceUpdates);
  return [...addresses];
}
