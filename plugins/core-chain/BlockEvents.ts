import type { Move } from './BalanceMoves';

/** An implicit event of the block, before account ids are attached. */
export interface PlannedEvent {
  type: string;
  address: string;
  opN: number;
  index: number;
  fee: bigint;
  reward: bigint;
  deposit: bigint;
  burned: bigint;
}

export interface BlockEventPlan {
  events: PlannedEvent[];
  /** op_n of each block-level move (its event, or a number of its own when it makes no event). */
  opNs: number[];
}

// Event type per block-level cause (see BalanceMoves); causes not listed make no event.
const EVENT_BY_CAUSE: Readonly<Record<string, string>> = {
  baking: 'bake',
  bonus: 'bonus',
  reward: 'reward',
  deposit: 'deposit',
  invoice: 'invoice',
  airdrop: 'airdrop',
  subsidy: 'subsidy',
};

function eventTypeOf(m: Move): string | undefined {
  if (m.cause === 'nonce_revelation') return m.isBurned ? 'seed_slash' : undefined;
  if (m.cause === 'internal') return m.isUnfrozen ? 'unfreeze' : undefined;
  return EVENT_BY_CAUSE[m.cause ?? ''];
}

function addAmounts(e: PlannedEvent, m: Move): void {
  switch (e.type) {
    case 'bake':
      if (m.isFee) e.fee += m.amountIn;
      else if (m.category === 'deposits' && !m.fromMint) e.deposit += m.amountIn;
      else e.reward += m.amountIn;
      return;
    case 'deposit':
      if (m.kind === 'freezer') e.deposit += m.amountIn;
      return;
    case 'unfreeze':
    case 'seed_slash': {
      const amount = m.neutral ? m.amountIn : m.amountOut;
      if (m.category === 'fees') e.fee += amount;
      else if (m.category === 'deposits') e.deposit += amount;
      else e.reward += amount;
      if (e.type === 'seed_slash') e.burned += m.amountOut;
      return;
    }
    default:
      e.reward += m.amountIn;
      if (m.neutral) e.burned += m.amountOut;
  }
}

/**
 * Groups block-level moves into implicit events, one per account and event type in order of first
 * appearance (numbered from `firstOpN`): bake (baking reward, Emmy deposit, collected fees), bonus,
 * reward (attesting rewards, or their loss), deposit, unfreeze, seed_slash, invoice, airdrop.
 * A payout of unfrozen funds joins its account's unfreeze event. `bakeFees` (Emmy: the fees of the
 * block's operations, frozen for the baker) is added to the baker's bake event.
 */
export function planBlockEvents(
  moves: readonly Move[],
  firstOpN: number,
  baker: string | undefined,
  bakeFees: bigint,
): BlockEventPlan {
  const slots = new Map<string, number>();
  const byKey = new Map<string, PlannedEvent>();
  const slot = (key: string): number => {
    let n = slots.get(key);
    if (n === undefined) slots.set(key, (n = firstOpN + slots.size));
    return n;
  };
  const opNs = moves.map((m) => {
    let type = eventTypeOf(m);
    if (type === undefined && m.cause === 'internal' && byKey.has(`unfreeze:${m.address}`)) type = 'unfreeze';
    if (type === undefined) return slot(`-:${m.address}`);
    const key = `${type}:${m.address}`;
    let event = byKey.get(key);
    if (!event) {
      event = { type, address: m.address, opN: slot(key), index: 0, fee: 0n, reward: 0n, deposit: 0n, burned: 0n };
      byKey.set(key, event);
    }
    addAmounts(event, m);
    return event.opN;
  });
  const events = [...byKey.values()];
  if (bakeFees > 0n && baker !== undefined) {
    const bake = events.find((e) => e.type === 'bake' && e.address === baker);
    if (bake) bake.fee += bakeFees;
  }
  events.forEach((e, i) => (e.index = i));
  return { events, opNs };
}
