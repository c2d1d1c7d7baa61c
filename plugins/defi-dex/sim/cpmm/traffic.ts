import {
  type Account,
  BalanceUpdates,
  type BlockContext,
  CallContext,
  type ContractModel,
  type LazyStorageDiff,
  logAmount,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pickSource,
  TEZ,
} from '../../../../framework/sandbox/extension';
import type { PendingDiff } from './PendingDiff';
import { min, type PoolCall, type ReservePool } from './ReservePool';

/**
 * DEX traffic on a reserve pool, whatever its protocol: swaps either way and liquidity in and out, by the
 * calls its simulator builds. Tokens move by internal FA1.2 transfers.
 */
export function poolCall(ctx: BlockContext, pool: ReservePool): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const action = prng.float();
  const tezSide = pool.tokenB === undefined;
  const other = pool.tokenB;
  let source;
  let kind: 'buy' | 'sell' | 'add' | 'remove';
  const holdsB = (a: { address: string }) => tezSide || (other?.balanceOf(a.address) ?? 0n) > 0n;
  const funded = (a: { address: string; balance: bigint }) =>
    a.balance > 50n * TEZ && pool.token.balanceOf(a.address) > 0n && holdsB(a);
  // An empty pool is opened first: its first deposit, at the opening price.
  if (pool.state.lqtTotal === 0n) {
    const opener = pickSource(ctx, funded, false);
    return opener && provide(ctx, pool, opener);
  }
  if (action < 0.4) {
    kind = 'buy';
    source = tezSide
      ? pickSource(ctx, (a) => a.balance > 20n * TEZ)
      : pickSource(ctx, (a) => a.balance > TEZ && (other?.balanceOf(a.address) ?? 0n) > 0n, false);
  } else if (action < 0.75) {
    kind = 'sell';
    source = pickSource(ctx, (a) => a.balance > TEZ && pool.token.balanceOf(a.address) > 0n, false);
  } else if (action < 0.9) {
    kind = 'add';
    source = pickSource(ctx, funded, false);
  } else {
    kind = 'remove';
    source = pickSource(ctx, (a) => a.balance > TEZ && pool.sharesOf(a.address) > 0n, false);
  }
  if (!source) return undefined;
  if (kind === 'add') return provide(ctx, pool, source);
  const user = source.address;
  const s = pool.state;
  let content: ManagerContent;
  const content0 = (
    run: (call: CallContext, transfer: BalanceUpdates) => PoolCall & { grown?: number },
    gas: number,
  ): ManagerContent => deferredCall(ctx, user, pool, run, gas, pool.pending);
  if (kind === 'buy') {
    const amount = tezSide
      ? logAmount(ctx, TEZ, min(s.otherPool / 500n, source.balance / 4n))
      : logAmount(ctx, 1n, min(s.otherPool / 10n, (other?.balanceOf(user) ?? 0n) / 2n));
    content = content0((call, transfer) => pool.swap(call, user, false, amount, transfer), 8000);
  } else if (kind === 'sell') {
    // At most a tenth of the reserve: a pool opened by one user's deposit is shallow.
    const amount = 1n + prng.bigRange(0n, min(s.tokenPool / 10n, pool.token.balanceOf(user) / 4n));
    content = content0((call, transfer) => pool.swap(call, user, true, amount, transfer), 8000);
  } else {
    const shares = 1n + prng.bigRange(0n, pool.sharesOf(user) / 3n);
    content = content0((call) => pool.removeLiquidity(call, user, shares), 9000);
  }
  return new ManagerGroupBuilder(ctx).build(user, [content]);
}

/**
 * A deposit by `source`, at most half of either side it holds (a tenth of its tez): into an empty pool the
 * opening one (half its tokens, at the depositor's price), else at the reserves' ratio.
 */
export function provide(ctx: BlockContext, pool: ReservePool, source: Account): Record<string, unknown> | undefined {
  const user = source.address;
  const s = pool.state;
  const held = pool.token.balanceOf(user);
  const cap = pool.tokenB ? pool.tokenB.balanceOf(user) / 2n : source.balance / 10n;
  const opening = s.lqtTotal === 0n;
  const amount = opening ? cap : min((held * s.otherPool) / s.tokenPool / 2n, cap);
  if (amount < 2n || (opening && held < 4n)) return undefined;
  const add = (call: CallContext, transfer: BalanceUpdates) =>
    pool.addLiquidity(call, user, amount, transfer, held / 2n);
  return new ManagerGroupBuilder(ctx).build(user, [deferredCall(ctx, user, pool, add, 9000, pool.pending)]);
}

/**
 * A `contractCall` of a pool model whose storage diff is built up in `pending` while the call applies;
 * a failed run drops it (the content is then backtracked by the group builder).
 */
export function deferredCall(
  ctx: BlockContext,
  user: string,
  model: ContractModel,
  run: (call: CallContext, transfer: BalanceUpdates) => PoolCall & { grown?: number },
  gas: number,
  pending: PendingDiff,
): ManagerContent {
  return contractCall(ctx, user, model, gas, (call, transfer) => {
    let planned;
    try {
      planned = run(call, transfer);
    } catch (e) {
      pending.take(call);
      throw e;
    }
    return { ...planned, diff: pending.take(call) };
  });
}

/** What a simulated call did: its entrypoint and parameters, tez sent, entries its storage gained, its big map diff. */
export interface AppliedCall {
  entrypoint: string;
  value: Micheline;
  amount?: bigint;
  grown?: number;
  diff?: LazyStorageDiff;
  /** The call's own result when `run` built it before later calls changed the storage (a callback). */
  result?: ReturnType<CallContext['contractResult']>;
}

/**
 * A content of `user` calling `destination` whose parameters are known only when it applies (amounts
 * depend on the state then): `run` applies the call (tez sent go through `transfer`) and says what it was.
 */
export function contractCall(
  ctx: BlockContext,
  user: string,
  destination: ContractModel,
  gasLimit: number,
  run: (call: CallContext, transfer: BalanceUpdates) => AppliedCall,
): ManagerContent {
  const c: ManagerContent = {
    kind: 'transaction',
    fields: { amount: '0', destination: destination.address },
    gasLimit,
    storageLimit: 350,
    apply: () => {
      const call = new CallContext(ctx, user);
      const transfer = new BalanceUpdates(ctx.book);
      const done = run(call, transfer);
      c.fields.amount = String(done.amount ?? 0n);
      c.fields.parameters = { entrypoint: done.entrypoint, value: done.value };
      return {
        result:
          done.result ??
          call.contractResult(destination, done.diff ?? call.newDiff(), gasLimit, done.grown ?? 0, transfer),
        internal: call.internal,
      };
    },
  };
  return c;
}
