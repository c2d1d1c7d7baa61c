import type { NormalizedBlock } from '../../framework';

/**
 * Every address a block mentions, each once, in the order of first mention: new accounts get their
 * ids in this order (the same on every instance), and a batch reads its accounts' rows ahead by it.
 */
export function blockAddresses(block: NormalizedBlock): string[] {
  const addresses = new Set<string>();
  const add = (a: string | undefined): void => {
    if (a) addresses.add(a);
  };
  [block.baker, block.proposer, block.bakerConsensusKey, block.proposerConsensusKey].forEach(add);
  for (const op of block.operations) {
    const originates = op.kind === 'origination' || op.type === 'rollup_origination';
    [op.sender, originates && !op.isSuccess ? undefined : op.receiver, op.creator, op.baker, op.accuser, op.offender].forEach(add);
    if (op.isSuccess) op.originatedContracts.forEach(add);
    for (const u of [...op.balanceUpdates, ...op.resultBalanceUpdates]) [u.kind === 'burned' ? u.delegate : u.account, u.staker?.delegate].forEach(add);
  }
  for (const u of block.balanceUpdates) [u.kind === 'burned' ? u.delegate : u.account, u.staker?.delegate].forEach(add);
  return [...addresses];
}
