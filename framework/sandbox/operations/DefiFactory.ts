import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { CallContext } from '../contracts/ContractModel';
import type { CpmmPool, PoolCall } from '../contracts/CpmmPool';
import type { LendingAction } from '../contracts/LendingMarket';
import { LazyStorageDiff } from '../contracts/LazyStorageDiff';
import { ManagerGroupBuilder, type Applied, type ManagerContent } from './ManagerGroup';
import { logAmount, pickSource, TEZ } from './Sources';

/**
 * DeFi traffic with the protocols' real entrypoints: swaps and liquidity on Liquidity Baking (Sirius),
 * QuipuSwap v1 and a Plenty volatile pool; stake/unstake/harvest on a Plenty farm; supply, redeem,
 * borrow and repay on a Yupana-style lending market. Each call moves tokens by internal FA1.2 transfers.
 */
export function buildDefiCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const r = ctx.prng.float();
  if (r < 0.6) return poolCall(ctx, ctx.prng.pick(ctx.contracts.pools));
  if (r < 0.8) return farmCall(ctx);
  return lendingCall(ctx);
}

/** A content calling `destination` whose effects `run` computes once applied. */
function contractContent(ctx: BlockContext, source: string, destination: string, gasLimit: number, plan: PoolCall, run: (call: CallContext) => Applied): ManagerContent {
  return {
    kind: 'transaction',
    fields: { amount: String(plan.amount), destination, parameters: { entrypoint: plan.entrypoint, value: plan.value } },
    gasLimit,
    storageLimit: 350,
    apply: () => run(new CallContext(ctx, source)),
  };
}

function poolCall(ctx: BlockContext, pool: CpmmPool): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const action = prng.float();
  const tezSide = pool.role !== 'plenty_volatile';
  const other = pool.tokenB;
  let source;
  let kind: 'buy' | 'sell' | 'add' | 'remove';
  if (action < 0.4) {
    kind = 'buy';
    source = tezSide ? pickSource(ctx, (a) => a.balance > 20n * TEZ) : pickSource(ctx, (a) => a.balance > TEZ && (other?.balanceOf(a.address) ?? 0n) > 0n, false);
  } else if (action < 0.75) {
    kind = 'sell';
    source = pickSource(ctx, (a) => a.balance > TEZ && pool.token.balanceOf(a.address) > 0n, false);
  } else if (action < 0.9) {
    kind = 'add';
    source = pickSource(ctx, (a) => a.balance > 50n * TEZ && pool.token.balanceOf(a.address) > 0n && (tezSide || (other?.balanceOf(a.address) ?? 0n) > 0n), false);
  } else {
    kind = 'remove';
    source = pickSource(ctx, (a) => a.balance > TEZ && pool.sharesOf(a.address) > 0n, false);
  }
  if (!source) return undefined;
  const user = source.address;
  const s = pool.state;
  let content: ManagerContent;
  // Amounts out depend on the pool state when the content applies, so its fields are filled by apply().
  const content0 = (run: (call: CallContext, transfer: BalanceUpdates) => PoolCall & { grown?: number }, gas: number): ManagerContent => {
    const probe: ManagerContent = {
      kind: 'transaction',
      fields: { amount: '0', destination: pool.address },
      gasLimit: gas,
      storageLimit: 350,
      apply: () => {
        const call = new CallContext(ctx, user);
        const transfer = new BalanceUpdates(ctx.book);
        let planned;
        try {
          planned = run(call, transfer);
        } catch (e) {
          pool.takeOwnDiff(call); // drop the half-built ledger diff of the failed call
          throw e;
        }
        probe.fields.amount = String(planned.amount);
        probe.fields.destination = pool.address;
        probe.fields.parameters = { entrypoint: planned.entrypoint, value: planned.value };
        const result = call.contractResult(pool, pool.takeOwnDiff(call), gas, planned.grown ?? 0, transfer);
        return { result, internal: call.internal };
      },
    };
    return probe;
  };
  if (kind === 'buy') {
    const amount = tezSide ? logAmount(ctx, TEZ, min(s.otherPool / 500n, source.balance / 4n)) : logAmount(ctx, 1n, (other?.balanceOf(user) ?? 0n) / 2n);
    content = content0((call, transfer) => pool.swap(call, user, false, amount, transfer), 8000);
  } else if (kind === 'sell') {
    const amount = 1n + prng.bigRange(0n, pool.token.balanceOf(user) / 4n);
    content = content0((call, transfer) => pool.swap(call, user, true, amount, transfer), 8000);
  } else if (kind === 'add') {
    const held = pool.token.balanceOf(user);
    const maxOther = (held * s.otherPool) / s.tokenPool / 2n;
    const cap = tezSide ? source.balance / 10n : (other?.balanceOf(user) ?? 0n) / 2n;
    const amount = maxOther < cap ? maxOther : cap;
    if (amount < 2n) return undefined;
    content = content0((call, transfer) => pool.addLiquidity(call, user, amount, transfer), 9000);
  } else {
    const shares = 1n + prng.bigRange(0n, pool.sharesOf(user) / 3n);
    content = content0((call) => pool.removeLiquidity(call, user, shares), 9000);
  }
  return new ManagerGroupBuilder(ctx).build(user, [content]);
}

function farmCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const farm = ctx.contracts.farm;
  const staker = pickSource(ctx, (a) => a.balance > TEZ && farm.positions.get(a.address) > 0n, false);
  const holder = pickSource(ctx, (a) => a.balance > TEZ && farm.staked.balanceOf(a.address) > 0n, false);
  const useStaker = staker && (!holder || ctx.prng.chance(0.5));
  const user = useStaker ? staker : holder;
  if (!user) return undefined;
  const entrypoint = useStaker ? (ctx.prng.chance(0.5) ? 'unstake' : 'GetReward') : 'stake';
  const amount = entrypoint === 'stake' ? 1n + ctx.prng.bigRange(0n, farm.staked.balanceOf(user.address) / 2n) : entrypoint === 'unstake' ? 1n + ctx.prng.bigRange(0n, farm.positions.get(user.address) - 1n) : 0n;
  const value = entrypoint === 'GetReward' ? { prim: 'Unit' } : { int: String(amount) };
  const content = contractContent(ctx, user.address, farm.address, 6000, { entrypoint, value, amount: 0n }, (call) => {
    const diff = new LazyStorageDiff(ctx.book);
    const { grown } = farm.apply(call, diff, user.address, entrypoint, amount);
    return { result: call.contractResult(farm, diff, 6000, grown), internal: call.internal };
  });
  return new ManagerGroupBuilder(ctx).build(user.address, [content]);
}

function lendingCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const market = ctx.contracts.lending;
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

const min = (a: bigint, b: bigint) => (a < b ? a : b);
