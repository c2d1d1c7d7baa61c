import { type BlockContext, CallContext, LazyStorageDiff, ManagerGroupBuilder, type ManagerContent, pickSource, TEZ } from '../../../../framework/sandbox/extension';
import type { LendingAction, LendingMarket } from './LendingMarket';

/** Lending traffic on a Yupana-style market: supply (`mint`), `redeem`, `borrow` and `repay`. */
export function lendingCall(ctx: BlockContext, market: LendingMarket): Record<string, unknown> | undefined {
  const tokenId = ctx.prng.int(market.markets.length);
  const token = market.markets[tokenId];
  const r = ctx.prng.float();
  let action: LendingAction;
  let user;
  let amount: bigint;
  if (r < 0.3) {
    action = 'mint';
    user = pickSource(ctx, (a) => a.balance > TEZ && token.balanceOf(a.address) > 0n, false);
    amount = user ? 1n + ctx.prng.bigRange(0n, token.balanceOf(user.address) / 3n) : 0n;
  } else if (r < 0.5) {
    action = 'redeem';
    user = pickSource(ctx, (a) => a.balance > TEZ && market.supplied.get(a.address, tokenId) > 0n, false);
    amount = user ? 1n + ctx.prng.bigRange(0n, market.supplied.get(user.address, tokenId) - 1n) : 0n;
  } else if (r < 0.8) {
    action = 'borrow';
    user = pickSource(ctx, (a) => a.balance > TEZ && a.kind !== undefined);
    amount = 1n + ctx.prng.bigRange(0n, token.balanceOf(market.address) / 10_000n);
  } else {
    action = 'repay';
    user = pickSource(ctx, (a) => a.balance > TEZ && market.borrowed.get(a.address, tokenId) > 0n && token.balanceOf(a.address) > 0n, false);
    const owed = user ? market.borrowed.get(user.address, tokenId) : 0n;
    const held = user ? token.balanceOf(user.address) : 0n;
    amount = owed < held ? owed : held;
  }
  if (!user || amount <= 0n) return undefined;
  const who = user.address;
  const content: ManagerContent = {
    kind: 'transaction',
    fields: { amount: '0', destination: market.address, parameters: { entrypoint: action, value: { int: '0' } } },
    gasLimit: 12000,
    storageLimit: 300,
    apply: () => {
      const call = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      const { value, grown } = market.apply(call, diff, who, action, tokenId, amount);
      (content.fields.parameters as { value: unknown }).value = value;
      return { result: call.contractResult(market, diff, 12000, grown), internal: call.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(who, [content]);
}

