import {
  type BlockContext,
  CallContext,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pickSource,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import type { LendingAction, LendingMarket } from './LendingMarket';

type Account = NonNullable<ReturnType<typeof pickSource>>;

/**
 * One call to the market; `call` applies it and returns its parameter (decided when applied, after the group's
 * accruals).
 */
function content(
  ctx: BlockContext,
  market: LendingMarket,
  who: string,
  entrypoint: string,
  call: (c: CallContext, diff: LazyStorageDiff) => { value: Micheline; grown: number },
): ManagerContent {
  const parameters: { entrypoint: string; value: Micheline } = { entrypoint, value: { int: '0' } };
  return {
    kind: 'transaction',
    fields: { amount: '0', destination: market.address, parameters },
    gasLimit: 12000,
    storageLimit: 300,
    apply: () => {
      const cc = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      const { value, grown } = call(cc, diff);
      parameters.value = value;
      return { result: cc.contractResult(market, diff, 12000, grown), internal: cc.internal };
    },
  };
}

/**
 * One of the market's suppliers or borrowers that can send an operation in this block (the random draws of pickSource
 * rarely meet them).
 */
function holder(ctx: BlockContext, owners: string[]): Account | undefined {
  const ready = owners.filter((a) => !ctx.usedSources.has(a) && ctx.book.get(a).balance > TEZ);
  return ready.length > 0 ? ctx.book.get(ctx.prng.pick(ready)) : undefined;
}

/** `updateInterest` of one market, which Yupana wants in the block of any call touching it. */
export const accrual = (ctx: BlockContext, market: LendingMarket, who: string, tokenId: number): ManagerContent =>
  content(ctx, market, who, 'updateInterest', (c) => market.updateInterest(c, tokenId));

/** A supply (`mint`) of `amount` of one market's token. */
export const supply = (
  ctx: BlockContext,
  market: LendingMarket,
  who: string,
  tokenId: number,
  amount: bigint,
): ManagerContent =>
  content(ctx, market, who, 'mint', (c, diff) => market.apply(c, diff, who, 'mint', tokenId, amount));

/**
 * Lending traffic on a Yupana-style market: a keeper's lone `updateInterest`, or a user's supply
 * (`mint`), `redeem`, `borrow` or `repay` batched after `updateInterest` of the markets it touches, as
 * Yupana's app sends them (the contract wants their interest updated in the same block).
 */
export function lendingCall(ctx: BlockContext, market: LendingMarket): Record<string, unknown> | undefined {
  const tokenId = ctx.prng.int(market.markets.length);
  const token = market.markets[tokenId];
  const cash = market.cash(tokenId);
  const r = ctx.prng.float();
  if (r < 0.12) {
    const keeper = pickSource(ctx, (a) => a.balance > TEZ);
    return keeper
      ? new ManagerGroupBuilder(ctx).build(keeper.address, [accrual(ctx, market, keeper.address, tokenId)])
      : undefined;
  }
  if (r >= 0.85) return r < 0.93 ? yTokenTransfer(ctx, market, tokenId) : liquidation(ctx, market);
  let action: LendingAction;
  let user: Account | undefined;
  let amount: (who: string) => bigint;
  if (r < 0.35) {
    action = 'mint';
    user = pickSource(ctx, (a) => a.balance > TEZ && token.balanceOf(a.address) > 0n, false);
    const held = user ? token.balanceOf(user.address) : 0n;
    const minted = 1n + ctx.prng.bigRange(0n, held / 3n);
    amount = () => minted;
  } else if (r < 0.5) {
    action = 'redeem';
    user = cash === 0n ? undefined : holder(ctx, market.owners('ledger', tokenId));
    // All of it (amount 0: Yupana redeems every yToken) or a part of what they are worth once the interest is up to
    // date; never more than the market holds (what others borrowed is not there to take).
    const part = ctx.prng.chance(0.3) ? 1000n : BigInt(Math.floor(ctx.prng.float() * 1000));
    amount = (who) => {
      const worth = (part: bigint) =>
        (market.supplied.get(who, tokenId) * market.liquidity(tokenId) * part) /
        1000n /
        market.state.tokens[tokenId].totalSupplyF /
        10n ** 18n;
      const want = worth(part);
      if (want === worth(1000n) || want === 0n) return worth(1000n) <= cash ? 0n : cash;
      return want < cash ? want : cash;
    };
  } else if (r < 0.7) {
    action = 'borrow';
    // Borrowers are suppliers of another market (their collateral on the real contract) when there are some.
    const suppliers = market.markets.flatMap((_, c) => (c === tokenId ? [] : market.owners('ledger', c)));
    user = holder(ctx, suppliers) ?? pickSource(ctx, (a) => a.balance > TEZ && a.kind !== undefined);
    if (cash === 0n) return undefined;
    const most = 1n + ctx.prng.bigRange(0n, token.balanceOf(market.address) / 10_000n);
    const borrowed = most < cash ? most : cash;
    amount = () => borrowed;
  } else {
    action = 'repay';
    user = holder(
      ctx,
      market
        .owners('accounts', tokenId)
        .filter((a) => market.account(a, tokenId).borrow > 0n && token.balanceOf(a) > 0n),
    );
    const all = ctx.prng.chance(0.5);
    // All of it (amount 0: Yupana repays the whole borrow) when the user holds enough, else what it can.
    amount = (who) => {
      const owed = market.owed(who, tokenId);
      const held = token.balanceOf(who);
      if (all && held >= owed) return 0n;
      return owed - 1n < held ? owed - 1n : held;
    };
  }
  if (!user) return undefined;
  const who = user.address;
  const markets = action === 'mint' ? [tokenId] : [...new Set([...market.borrowed(who), tokenId])].sort();
  const call = content(ctx, market, who, action, (c, diff) => market.apply(c, diff, who, action, tokenId, amount(who)));
  return new ManagerGroupBuilder(ctx).build(who, [...markets.map((id) => accrual(ctx, market, who, id)), call]);
}

/** A supplier sends part of its yTokens to another account (TZIP-12 `transfer`, whole yTokens). */
function yTokenTransfer(
  ctx: BlockContext,
  market: LendingMarket,
  tokenId: number,
): Record<string, unknown> | undefined {
  const from = holder(
    ctx,
    market.owners('ledger', tokenId).filter((a) => market.supplied.get(a, tokenId) >= 10n ** 18n),
  );
  const to = from && pickSource(ctx, (a) => a.address !== from.address);
  if (!from || !to) return undefined;
  const amount = 1n + ctx.prng.bigRange(0n, market.supplied.get(from.address, tokenId) / 10n ** 18n / 2n);
  return new ManagerGroupBuilder(ctx).build(from.address, [
    content(ctx, market, from.address, 'transfer', (_c, diff) =>
      market.transfer(diff, from.address, to.address, tokenId, amount),
    ),
  ]);
}

/**
 * A liquidator repays part of a borrower's debt in one market and takes the borrower's yTokens of
 * another, after `updateInterest` of the borrower's markets. The amount stays within the close
 * factor, the liquidator's tokens and the collateral the borrower has.
 */
function liquidation(ctx: BlockContext, market: LendingMarket): Record<string, unknown> | undefined {
  const ids = market.markets.map((_, id) => id);
  const pairs = ids.flatMap((b) =>
    market
      .owners('accounts', b)
      .filter((a) => market.account(a, b).borrow > 0n)
      .flatMap((borrower) =>
        ids
          .filter((c) => c !== b && market.supplied.get(borrower, c) > 0n)
          .map((collateralToken) => ({ tokenId: b, borrower, collateralToken })),
      ),
  );
  if (pairs.length === 0) return undefined;
  const { tokenId, borrower, collateralToken } = ctx.prng.pick(pairs);
  const token = market.markets[tokenId];
  const liquidator = pickSource(
    ctx,
    (a) => a.address !== borrower && a.balance > TEZ && token.balanceOf(a.address) > 0n,
  );
  if (!liquidator) return undefined;
  const held = token.balanceOf(liquidator.address);
  let amount = market.maxClose(borrower, tokenId) < held ? market.maxClose(borrower, tokenId) : held;
  const fits = (n: bigint) => {
    const { seize, reserve } = market.seizure({ borrowToken: tokenId, collateralToken, amount: n });
    return seize + reserve <= market.supplied.get(borrower, collateralToken);
  };
  while (amount > 0n && !fits(amount)) amount /= 2n;
  if (amount === 0n) return undefined;
  const who = liquidator.address;
  const markets = [...new Set([...market.borrowed(borrower), tokenId, collateralToken])].sort();
  const call = content(ctx, market, who, 'liquidate', (c, diff) =>
    market.liquidate(c, diff, who, { borrowToken: tokenId, collateralToken, borrower, amount }),
  );
  return new ManagerGroupBuilder(ctx).build(who, [...markets.map((id) => accrual(ctx, market, who, id)), call]);
}
