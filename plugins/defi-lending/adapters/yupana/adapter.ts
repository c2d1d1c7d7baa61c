import type { GroupMatch, HandlerRegistry, MatchedStep } from '../../../../framework';
import { PoolCall, type TokenMove } from '../../../defi-dex/core/PoolCall';
import type { LendingAction, LendingAdapter, LendingEventType, LendingSink, LendingSupply, LendingTokenRef } from '../../core/LendingAdapter';
import { marketSupply, marketToken, yupanaStorage } from './storage';

/** Entrypoints that move a position, and the event each one is. */
const KIND: Record<string, LendingEventType> = { mint: 'deposit', redeem: 'withdraw', borrow: 'borrow', repay: 'repay', liquidate: 'liquidate' };
/** Underlying comes into the market on these; it goes out on the others. */
const INTO = new Set<LendingEventType>(['deposit', 'repay', 'liquidate']);

interface Params {
  tokenId?: bigint;
  borrowToken?: bigint;
  borrower?: string;
}

/**
 * Yupana markets (entity `yupana`): one contract, one market per token id (pool_id). Recognized by
 * the entrypoints `mint`/`redeem`/`borrow`/`repay` and a storage with `ledger` and `accounts` big maps.
 * Amounts are what moved (the market's token transfers); totals come from `tokens[id]` after the call,
 * or, for markets whose storage keeps none (the sandbox model), from the recorded totals moved by the call.
 * `enterMarket`/`exitMarket` set the owner's collateral flag (no event).
 */
export const yupanaAdapter: LendingAdapter = {
  name: 'yupana',
  entities: ['yupana'],
  register(r: HandlerRegistry, sink: LendingSink): void {
    r.onOperationGroup([{ name: 'market', destination: { entrypoints: ['mint', 'redeem', 'borrow', 'repay'] }, entrypoint: Object.keys(KIND) }], async (m, ctx) => {
      const step = m.steps.market!;
      const s = yupanaStorage(step.storage);
      const kind = KIND[step.entrypoint ?? ''];
      const p = step.parameters as Params;
      // liquidate's market is the borrowed token's: that is where the repaid debt goes.
      const tokenId = kind === 'liquidate' ? p.borrowToken : p.tokenId;
      if (!s || !kind || typeof tokenId !== 'bigint') return;
      const call = new PoolCall(m, step);
      const token = marketToken(s, tokenId) ?? movedToken(call, step.contract);
      if (!token) return;
      const action = decode(m, step, call, token, kind, p);
      const key = { contract: step.contract, poolId: Number(tokenId) };
      const before = await sink.supply(ctx, key);
      const supply = marketSupply(s, tokenId) ?? moved(before, action);
      if (!before) await sink.market(ctx, { ...key, entity: 'yupana', debt: token, collateral: token }, supply);
      await sink.action(ctx, key, action, supply, { match: m, step });
    });
    r.onOperationGroup([{ name: 'market', destination: { entrypoints: ['mint', 'redeem', 'borrow', 'repay'] }, entrypoint: ['enterMarket', 'exitMarket'] }], async (m, ctx) => {
      const step = m.steps.market!;
      const s = yupanaStorage(step.storage);
      const tokenId = step.parameters;
      if (!s || typeof tokenId !== 'bigint') return;
      // Only markets the storage describes can be declared here: no token moves on these calls.
      const token = marketToken(s, tokenId);
      const supply = marketSupply(s, tokenId);
      const key = { contract: step.contract, poolId: Number(tokenId) };
      if (!(await sink.supply(ctx, key))) {
        if (!token || !supply) return;
        await sink.market(ctx, { ...key, entity: 'yupana', debt: token, collateral: token }, supply);
      }
      await sink.collateral(ctx, key, step.sender ?? m.signer ?? '', step.entrypoint === 'enterMarket');
    });
  },
};

/** The underlying token of a market whose storage does not name it: the one token the call moved to or from the market. */
function movedToken(call: PoolCall, market: string): LendingTokenRef | undefined {
  const mine = call.tokenMoves().filter((t) => t.from === market || t.to === market);
  const keys = new Set(mine.map((t) => `${t.token}:${t.tokenId}`));
  if (keys.size !== 1) return undefined;
  const t: TokenMove = mine[0];
  // FA1.2 moves read as id 0; an FA2 move is told apart by nothing else here, so id 0 is FA1.2.
  return t.tokenId === 0n ? { standard: 'fa1.2', contract: t.token } : { standard: 'fa2', contract: t.token, tokenId: t.tokenId };
}

function decode(m: GroupMatch, step: MatchedStep, call: PoolCall, token: LendingTokenRef, kind: LendingEventType, p: Params): LendingAction {
  const caller = step.sender ?? m.signer ?? '';
  const [contract, id] = token.standard === 'tez' ? ['', 0n] : [token.contract, token.standard === 'fa2' ? token.tokenId : 0n];
  const volume = call.tokens(contract, id, INTO.has(kind) ? 'in' : 'out');
  // Who got the tokens paid out (withdraw, borrow); the owner when the call paid nothing out.
  const paid = INTO.has(kind) ? undefined : call.tokenMoves().find((t) => t.token === contract && t.from === step.contract);
  const owner = kind === 'liquidate' && typeof p.borrower === 'string' ? p.borrower : caller;
  return { kind, owner, sender: caller, receiver: paid?.to ?? owner, volume, fee: 0n };
}

/** Totals the storage does not keep: the last recorded ones (0 for a new market) moved by the action. */
function moved(before: LendingSupply | undefined, a: LendingAction): LendingSupply {
  const s = before ?? { totalCollateral: 0n, totalDebt: 0n };
  const sub = (x: bigint) => (x > a.volume ? x - a.volume : 0n);
  switch (a.kind) {
    case 'deposit':
      return { ...s, totalCollateral: s.totalCollateral + a.volume };
    case 'withdraw':
      return { ...s, totalCollateral: sub(s.totalCollateral) };
    case 'borrow':
      return { ...s, totalDebt: s.totalDebt + a.volume };
    default:
      return { ...s, totalDebt: sub(s.totalDebt) };
  }
}
