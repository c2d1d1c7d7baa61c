import type { GroupMatch, HandlerRegistry, IndexContext, MatchedStep } from '../../../../framework';
import { fa2Transfers, PoolCall, type TokenMove } from '../../../../framework/defi';
import { PRECISION, shareValue } from '../../Interest';
import type {
  LendingAction,
  LendingAdapter,
  LendingEventType,
  LendingKey,
  LendingSink,
  LendingSupply,
  LendingTokenRef,
} from '../../core/LendingAdapter';
import {
  accountsAfter,
  marketInfo,
  marketSupply,
  marketToken,
  seized,
  type YupanaCall,
  yupanaCall,
  type YupanaStorage,
  yupanaStorage,
} from './storage';

/** Entrypoints that move a position, and the event each one is. */
const KIND: Record<string, LendingEventType> = {
  mint: 'deposit',
  redeem: 'withdraw',
  borrow: 'borrow',
  repay: 'repay',
  liquidate: 'liquidate',
};
/** Underlying comes into the market on these; it goes out on the others. */
const INTO = new Set<LendingEventType>(['deposit', 'repay', 'liquidate']);
/** Calls that only set the owner's collateral flag. */
const FLAGS = ['enterMarket', 'exitMarket'];
/**
 * Interest accrual: `updateInterest nat` (the sandbox model accrues there; the real contract only when
 * nothing is borrowed) and `accrueInterest {tokenId, amount}` (the rate model's callback that grows the index).
 */
const ACCRUALS = ['updateInterest', 'accrueInterest'];

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 1;

/**
 * Yupana markets (entity `yupana`): one contract, one market per token id (pool_id). Recognized by
 * the entrypoints `mint`/`redeem`/`borrow`/`repay` and a storage with `ledger` and `accounts` big maps.
 * Amounts are what moved (the market's token transfers); totals and rates come from `tokens[id]` after
 * the call, or, for markets whose storage keeps none, from the recorded totals moved by the call. The
 * owner's yTokens and borrows come from the call's `ledger`/`accounts` writes (every market it wrote:
 * Yupana brings all the owner's borrows to their index). Accruals update the totals and rates without
 * an event; `enterMarket`/`exitMarket` set the owner's collateral flag (no event). One handler for all
 * of them, so the market sees them in chain order.
 */
export const yupanaAdapter: LendingAdapter = {
  name: 'yupana',
  entities: ['yupana'],
  register(r: HandlerRegistry, sink: LendingSink): void {
    r.onOperationGroup(
      [
        {
          name: 'market',
          destination: { entrypoints: ['mint', 'redeem', 'borrow', 'repay'] },
          entrypoint: [...Object.keys(KIND), ...FLAGS, ...ACCRUALS, 'transfer'],
        },
      ],
      async (m, ctx) => {
        const step = m.steps.market!;
        const s = yupanaStorage(step.storage);
        if (!s) return;
        const entrypoint = step.entrypoint ?? '';
        if (entrypoint in KIND) return lending(m, ctx, sink, s, KIND[entrypoint]);
        if (entrypoint === 'transfer') return transfers(ctx, sink, s, step);
        const tokenId = yupanaCall(step.parameters).tokenId;
        if (tokenId === undefined) return;
        const key = { contract: step.contract, poolId: Number(tokenId) };
        if (FLAGS.includes(entrypoint)) {
          if (await declared(ctx, sink, key, s, step))
            await sink.collateral(ctx, key, step.sender ?? m.signer ?? '', entrypoint === 'enterMarket');
          return;
        }
        const supply = marketSupply(marketInfo(s, step.bigMapDiffs, tokenId));
        if (supply && (await declared(ctx, sink, key, s, step))) await sink.accrue(ctx, key, supply);
      },
    );
  },
};

/**
 * A call that moves a position: the event on its market, and the owner's figures the call rewrote in the other markets.
 */
async function lending(
  m: GroupMatch,
  ctx: IndexContext,
  sink: LendingSink,
  s: YupanaStorage,
  kind: LendingEventType,
): Promise<void> {
  const step = m.steps.market!;
  const p = yupanaCall(step.parameters);
  // liquidate's market is the borrowed token's: that is where the repaid debt goes.
  const tokenId = kind === 'liquidate' ? p.borrowToken : p.tokenId;
  if (typeof tokenId !== 'bigint') return;
  const call = new PoolCall(m, step);
  const info = marketInfo(s, step.bigMapDiffs, tokenId);
  const token = marketToken(info) ?? movedToken(call, step.contract);
  if (!token) return;
  const decoded = decode(m, step, call, token, kind, p);
  const accounts = accountsAfter(s, step.bigMapDiffs, decoded.owner);
  const account = accounts.get(tokenId);
  const action = account ? { ...decoded, account } : decoded;
  const key = { contract: step.contract, poolId: Number(tokenId) };
  const before = await sink.supply(ctx, key);
  const supply = marketSupply(info) ?? moved(before, action);
  if (!before) await sink.market(ctx, { ...key, entity: 'yupana', debt: token, collateral: token }, supply);
  await sink.action(ctx, key, action, supply, { match: m, step });
  // liquidate: the collateral seized goes from the borrower to the liquidator (and the reserves) in the collateral
  // market.
  const collateralId = kind === 'liquidate' ? p.collateralToken : undefined;
  const taken =
    typeof collateralId === 'bigint' && typeof p.amount === 'bigint'
      ? seized(s, info, marketInfo(s, step.bigMapDiffs, collateralId), p.amount)
      : undefined;
  for (const [id, other] of accounts) {
    if (id === tokenId && id !== collateralId) continue;
    const otherKey = { contract: step.contract, poolId: Number(id) };
    const rates = marketSupply(marketInfo(s, step.bigMapDiffs, id))?.rates;
    const sent = id === collateralId && taken && rates ? shareValue(taken.seize + taken.reserve, rates) : undefined;
    if (await sink.supply(ctx, otherKey))
      await sink.account(ctx, otherKey, decoded.owner, other, rates, sent === undefined ? undefined : { sent });
  }
  if (typeof collateralId !== 'bigint' || collateralId === tokenId) return;
  const collateralKey = { contract: step.contract, poolId: Number(collateralId) };
  const collateral = marketSupply(marketInfo(s, step.bigMapDiffs, collateralId));
  if (!(await sink.supply(ctx, collateralKey))) return;
  // The reserves' share of the seizure changes the collateral market's totals.
  if (collateral) await sink.accrue(ctx, collateralKey, collateral);
  const liquidator = accountsAfter(s, step.bigMapDiffs, decoded.sender).get(collateralId);
  const rates = collateral?.rates;
  if (liquidator)
    await sink.account(
      ctx,
      collateralKey,
      decoded.sender,
      liquidator,
      rates,
      taken && rates ? { received: shareValue(taken.seize, rates) } : undefined,
    );
}

/**
 * yToken transfers (TZIP-12 `transfer` of the market contract itself): supply moved between owners, valued at the
 * market's rates.
 */
async function transfers(ctx: IndexContext, sink: LendingSink, s: YupanaStorage, step: MatchedStep): Promise<void> {
  for (const move of fa2Transfers(step.contract, step.op.parameters)) {
    const key = { contract: step.contract, poolId: Number(move.tokenId) };
    if (!(await sink.supply(ctx, key))) continue;
    const rates = marketSupply(marketInfo(s, step.bigMapDiffs, move.tokenId))?.rates;
    // Yupana moves `amount × 10^18` of its ledger; unvalued where the call shows no rates (a big-map `tokens` the
    // transfer did not write).
    const value = rates ? shareValue(move.amount * PRECISION, rates) : 0n;
    for (const [owner, moved] of [
      [move.from, { sent: value }],
      [move.to, { received: value }],
    ] as const) {
      const account = accountsAfter(s, step.bigMapDiffs, owner).get(move.tokenId) ?? {};
      await sink.account(ctx, key, owner, account, rates, moved);
    }
  }
}

/**
 * Whether the market is known to the sink, declaring it when the storage describes it (calls that move no token cannot
 * name it otherwise).
 */
async function declared(
  ctx: IndexContext,
  sink: LendingSink,
  key: LendingKey,
  s: YupanaStorage,
  step: MatchedStep,
): Promise<boolean> {
  if (await sink.supply(ctx, key)) return true;
  const info = marketInfo(s, step.bigMapDiffs, BigInt(key.poolId));
  const token = marketToken(info);
  const supply = marketSupply(info);
  if (!token || !supply) return false;
  await sink.market(ctx, { ...key, entity: 'yupana', debt: token, collateral: token }, supply);
  return true;
}

/**
 * The underlying token of a market whose storage does not name it: the one token the call moved to or from the market.
 */
function movedToken(call: PoolCall, market: string): LendingTokenRef | undefined {
  const mine = call.tokenMoves().filter((t) => t.from === market || t.to === market);
  const keys = new Set(mine.map((t) => `${t.token}:${t.tokenId}`));
  if (keys.size !== 1) return undefined;
  const t: TokenMove = mine[0];
  // FA1.2 moves read as id 0; an FA2 move is told apart by nothing else here, so id 0 is FA1.2.
  return t.tokenId === 0n
    ? { standard: 'fa1.2', contract: t.token }
    : { standard: 'fa2', contract: t.token, tokenId: t.tokenId };
}

function decode(
  m: GroupMatch,
  step: MatchedStep,
  call: PoolCall,
  token: LendingTokenRef,
  kind: LendingEventType,
  p: YupanaCall,
): LendingAction {
  const caller = step.sender ?? m.signer ?? '';
  const [contract, id] =
    token.standard === 'tez' ? ['', 0n] : [token.contract, token.standard === 'fa2' ? token.tokenId : 0n];
  const volume = call.tokens(contract, id, INTO.has(kind) ? 'in' : 'out');
  // Who got the tokens paid out (withdraw, borrow); the owner when the call paid nothing out.
  const paid = INTO.has(kind)
    ? undefined
    : call.tokenMoves().find((t) => t.token === contract && t.from === step.contract);
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
