import type { BalanceUpdate } from '../../framework';
import type { FlowRow } from './tables.generated';

/** The `flow.category` of a sub-balance. */
export type FlowCategory = 'rewards' | 'deposits' | 'fees' | 'balance' | 'bond';

/** One change of one account's (sub-)balance: a `flow` row to be. */
export interface Move {
  address: string;
  counterparty?: string;
  /** Raw kind of the update: `contract` changes the spendable balance, `freezer` a frozen sub-balance. */
  kind: 'contract' | 'freezer';
  category: FlowCategory;
  change: bigint;
  amountIn: bigint;
  amountOut: bigint;
  isFee: boolean;
  isBurned: boolean;
  isFrozen: boolean;
  isUnfrozen: boolean;
  /** A credit paid from newly minted tez (rewards, subsidy, invoices). */
  fromMint: boolean;
  /** Block-level moves only: what caused them, as a `flow.operation` label. */
  cause?: FlowRow['operation'];
  /** Rewards burned right away (lost attesting rewards): recorded with in = out, no balance change. */
  neutral: boolean;
  /** A cycle-end slashing's (Oxford+): the hash of the denunciation it applies. */
  delayedOperationHash?: string;
}

/** Tez created or destroyed by a list, with what the node says about it. */
export interface Issuance {
  kind: 'mint' | 'burn';
  amount: bigint;
  /** The `minted`/`burned` category; undefined for Emmy receipts, which only show the net effect. */
  category?: string;
  revelation?: boolean;
  participation?: boolean;
  origin?: string;
  delayedOperationHash?: string;
}

export interface ClassifiedUpdates {
  moves: Move[];
  issuance: Issuance[];
}

/** An entry that moves an account's own balance (its spendable or frozen tez). */
type AccountEntry = BalanceUpdate & { account: string; kind: Move['kind'] };

const isAccountEntry = (u: BalanceUpdate): u is AccountEntry =>
  u.account !== undefined && (u.kind === 'contract' || u.kind === 'freezer');

function categoryOf(u: BalanceUpdate): FlowCategory {
  if (u.kind !== 'freezer') return 'balance';
  const c = u.category ?? '';
  if (c === 'bonds') return 'bond';
  if (c.includes('rewards')) return 'rewards';
  if (c.includes('fees')) return 'fees';
  // deposits, legacy_deposits, unstaked_deposits, stez_(redeemed_)deposits
  return 'deposits';
}

function move(u: AccountEntry, flags: Partial<Move>): Move {
  return {
    address: u.account,
    kind: u.kind,
    category: categoryOf(u),
    change: u.change,
    amountIn: u.change > 0n ? u.change : 0n,
    amountOut: u.change < 0n ? -u.change : 0n,
    isFee: false,
    isBurned: false,
    isFrozen: u.kind === 'freezer' && u.change > 0n,
    isUnfrozen: false,
    fromMint: false,
    neutral: false,
    delayedOperationHash: u.delayedOperationHash,
    ...flags,
  };
}

/**
 * Splits a list into transfers: consecutive entries whose changes sum to zero. Ithaca+ receipts are
 * written as debits followed by the matching credits, so every group is one transfer; Emmy receipts
 * leave burns and rewards unbalanced, which end up in a group with a non-zero sum.
 * Staking pseudotokens are not money and are dropped.
 */
export function transfers(updates: readonly BalanceUpdate[]): BalanceUpdate[][] {
  const out: BalanceUpdate[][] = [];
  let current: BalanceUpdate[] = [];
  let sum = 0n;
  for (const u of updates) {
    if (u.isPseudotoken) continue;
    current.push(u);
    sum += u.change;
    if (sum === 0n) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

function issuanceOf(u: BalanceUpdate): Issuance | undefined {
  if (u.kind === 'minted') return { kind: 'mint', amount: -u.change, category: u.category, origin: u.origin };
  if (u.kind === 'burned') {
    return {
      kind: 'burn',
      amount: u.change,
      category: u.category,
      revelation: u.revelation,
      participation: u.participation,
      origin: u.origin,
      delayedOperationHash: u.delayedOperationHash,
    };
  }
  return undefined;
}

// What a mint pays for, as the flow operation of the credited account.
const MINT_CAUSE: Readonly<Record<string, FlowRow['operation']>> = {
  'baking rewards': 'baking',
  'baking bonuses': 'bonus',
  'attesting rewards': 'reward',
  'DAL attesting rewards': 'reward',
  'nonce revelation rewards': 'nonce_revelation',
  subsidy: 'subsidy',
  invoice: 'invoice',
  minted: 'invoice',
  bootstrap: 'airdrop',
  commitment: 'activation',
  'double signing evidence rewards': 'penalty',
  tx_rollup_rejection_rewards: 'rollup_reward',
  smart_rollup_refutation_rewards: 'rollup_reward',
};

const BURN_CAUSE: Readonly<Record<string, FlowRow['operation']>> = {
  punishments: 'penalty',
  tx_rollup_rejection_punishments: 'rollup_penalty',
  smart_rollup_refutation_punishments: 'rollup_penalty',
};

/** Cause of a balanced transfer outside any operation (block-level receipts, Ithaca+ model). */
function transferCause(group: readonly BalanceUpdate[]): FlowRow['operation'] {
  const burned = group.find((u) => u.kind === 'burned');
  // Rewards lost for low participation or a missed nonce are minted and burned at once.
  if (burned?.category === 'lost attesting rewards' || burned?.category === 'lost DAL attesting rewards') {
    return burned.revelation === true && burned.participation !== true ? 'nonce_revelation' : 'reward';
  }
  const minted = group.find((u) => u.kind === 'minted');
  if (minted) return MINT_CAUSE[minted.category ?? ''] ?? 'invoice';
  if (group.some((u) => u.kind === 'accumulator')) return 'baking';
  if (burned) return BURN_CAUSE[burned.category ?? ''] ?? 'penalty';
  if (group.some((u) => u.origin === 'delayed_operation')) return 'penalty';
  // Contract → freezer freezes a deposit; freezer → contract pays out unfrozen funds.
  return group.some((u) => u.kind === 'freezer' && u.change > 0n) ? 'deposit' : 'internal';
}

/** A balanced transfer: every account entry, its counterparty when there is exactly one, and the flags. */
function classifyTransfer(group: readonly BalanceUpdate[], out: ClassifiedUpdates, withCause: boolean): void {
  const accounts = group.filter(isAccountEntry);
  const minted = group.some((u) => u.kind === 'minted');
  const burned = group.find((u) => u.kind === 'burned');
  // Ithaca+ fees go through the block-fee accumulator; Emmy fees are frozen for the baker.
  const isFee = group.some(
    (u) => u.kind === 'accumulator' || (u.kind === 'freezer' && categoryOf(u) === 'fees' && u.change > 0n),
  );
  const cause = withCause ? transferCause(group) : undefined;
  const pair = accounts.length === 2 && accounts[0].change * accounts[1].change < 0n;
  // Ithaca–Nairobi pay the block fees and the baking reward in one credit: split it into the two.
  const fees = minted ? group.reduce((s, u) => (u.kind === 'accumulator' && u.change < 0n ? s - u.change : s), 0n) : 0n;
  if (fees > 0n && accounts.length === 1 && accounts[0].change > fees) {
    const u = accounts[0];
    out.moves.push(move(u, { change: fees, amountIn: fees, isFee: true, cause }));
    out.moves.push(move(u, { change: u.change - fees, amountIn: u.change - fees, fromMint: true, cause }));
    for (const issued of group.map(issuanceOf)) if (issued && issued.amount !== 0n) out.issuance.push(issued);
    return;
  }
  for (const u of accounts) {
    if (u.change === 0n) continue;
    const other = pair ? accounts.find((a) => a !== u && a.account !== u.account) : undefined;
    out.moves.push(
      move(u, {
        counterparty: other?.account,
        isFee,
        isBurned: u.change < 0n && burned !== undefined,
        isUnfrozen: u.change < 0n && u.kind === 'freezer' && burned === undefined,
        fromMint: u.change > 0n && minted,
        cause,
      }),
    );
  }
  // Rewards lost for low participation are minted and burned at once: the baker sees them pass by.
  if (accounts.length === 0 && burned?.delegate !== undefined && burned.change > 0n) {
    out.moves.push({
      address: burned.delegate,
      kind: 'contract',
      category: 'balance',
      change: 0n,
      amountIn: burned.change,
      amountOut: burned.change,
      isFee: false,
      isBurned: true,
      isFrozen: false,
      isUnfrozen: false,
      fromMint: minted,
      cause,
      neutral: true,
    });
  }
  for (const u of group) {
    const issued = issuanceOf(u);
    if (issued && issued.amount !== 0n) out.issuance.push(issued);
  }
}

/**
 * An Emmy group that does not balance: a debit directly followed by a credit of the same amount is a
 * transfer; the net of the rest was burned (storage, allocation, penalties) or minted (rewards).
 */
function classifyUnbalanced(group: readonly BalanceUpdate[], out: ClassifiedUpdates): void {
  const net = group.reduce((s, u) => s + u.change, 0n);
  const isFee = group.some((u) => u.kind === 'freezer' && categoryOf(u) === 'fees' && u.change > 0n);
  for (let i = 0; i < group.length; i++) {
    const u = group[i];
    if (!isAccountEntry(u) || u.change === 0n) continue;
    const next = group[i + 1];
    if (u.change < 0n && next !== undefined && isAccountEntry(next) && next.change === -u.change) {
      const between = next.account === u.account ? {} : { counterparty: next.account };
      out.moves.push(move(u, { ...between, isFee, isUnfrozen: u.kind === 'freezer' }));
      out.moves.push(move(next, { ...(next.account === u.account ? {} : { counterparty: u.account }), isFee }));
      i++;
      continue;
    }
    out.moves.push(
      move(u, {
        isFee,
        isBurned: u.change < 0n && net < 0n,
        isUnfrozen: u.change < 0n && u.kind === 'freezer' && net >= 0n,
        fromMint: u.change > 0n && net > 0n,
      }),
    );
  }
  if (net > 0n) out.issuance.push({ kind: 'mint', amount: net });
  else if (net < 0n) out.issuance.push({ kind: 'burn', amount: -net });
}

function classify(updates: readonly BalanceUpdate[], withCause: boolean): ClassifiedUpdates {
  const out: ClassifiedUpdates = { moves: [], issuance: [] };
  for (const group of transfers(updates)) {
    const sum = group.reduce((s, u) => s + u.change, 0n);
    if (sum === 0n) classifyTransfer(group, out, withCause);
    else classifyUnbalanced(group, out);
  }
  return out;
}

/** The balance updates of one operation row (content receipt, or an applied result). */
export function classifyOperationUpdates(updates: readonly BalanceUpdate[]): ClassifiedUpdates {
  return classify(updates, false);
}

/**
 * Block-level balance updates. Lists in the Ithaca+ model (any minted, burned or accumulator entry,
 * or a Tenderbake block) are balanced transfers; Emmy block lists are read entry by entry:
 * - baker deposit: `contract` debit and `freezer deposits` credit; block reward: `freezer rewards` credit;
 * - cycle end: `freezer` debits pay out to the owner's `contract` (unfreeze). A rewards or fees debit
 *   of the previous or current cycle has no payout: the baker missed a seed nonce (seed slash);
 * - a `contract` credit not covered by unfrozen funds of the same account: invoice (protocol upgrade).
 */
export function classifyBlockUpdates(
  updates: readonly BalanceUpdate[],
  tenderbake: boolean,
  cycle: number,
): ClassifiedUpdates {
  const modern =
    tenderbake || updates.some((u) => u.kind === 'minted' || u.kind === 'burned' || u.kind === 'accumulator');
  if (modern) return classify(updates, true);
  const out: ClassifiedUpdates = { moves: [], issuance: [] };
  const unfrozen = new Map<string, bigint>();
  for (const u of updates) {
    if (!isAccountEntry(u) || u.change === 0n) continue;
    const address = u.account;
    const category = categoryOf(u);
    if (u.kind === 'freezer' && u.change > 0n) {
      const reward = category === 'rewards';
      out.moves.push(move(u, { cause: 'baking', fromMint: reward, isFee: category === 'fees' }));
      if (reward) out.issuance.push({ kind: 'mint', amount: u.change, category: 'baking rewards' });
    } else if (u.kind === 'freezer') {
      const slash =
        u.origin !== 'migration' && category !== 'deposits' && u.cycle !== undefined && u.cycle >= cycle - 1;
      if (slash) {
        out.moves.push(move(u, { cause: 'nonce_revelation', isBurned: true, isUnfrozen: true }));
        out.issuance.push({ kind: 'burn', amount: -u.change, category: 'seed slash' });
      } else {
        out.moves.push(move(u, { cause: 'internal', isUnfrozen: true }));
        unfrozen.set(address, (unfrozen.get(address) ?? 0n) - u.change);
      }
    } else if (u.change < 0n) {
      out.moves.push(move(u, { cause: 'baking' }));
    } else {
      const available = unfrozen.get(address) ?? 0n;
      if (available >= u.change) {
        unfrozen.set(address, available - u.change);
        out.moves.push(move(u, { cause: 'internal' }));
      } else {
        out.moves.push(move(u, { cause: 'invoice', fromMint: true }));
        out.issuance.push({ kind: 'mint', amount: u.change, category: 'invoice' });
      }
    }
  }
  return out;
}
