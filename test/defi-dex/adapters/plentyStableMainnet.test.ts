import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { isqrt } from '../../../framework/defi/Decimal';
import { plentyAdapter } from '../../../plugins/defi-dex/adapters/plenty/adapter';
import { plentyStableAdapter } from '../../../plugins/defi-dex/adapters/plenty-stable/adapter';
import type { DexLiquidityAction, DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { readFixtureJson } from '../../support/fixtures';
import { carrierBlockOf, FA12_SCRIPT, watchingContext } from '../../indexer/support/templeGroups';
import { flatCurveOut, Q48 } from '../support/flatCurve';
import { RecordingSink } from '../support/RecordingSink';
import { int, pair, str } from '../../../framework/sandbox/extension';
import { externalCall, fa12Transfer, fa2Transfer, internalCall, lpCall, tezPayment } from '../support/rpcGroups';

/*
 * The Plenty stable adapter on the recorded mainnet calls of both stable pools (pytezos fixtures). The
 * recordings keep each call's parameters and storage after it, not its internal operations: each group
 * here is the recorded call plus the operations the pool's code emits for it (FA transfers, LP
 * mint/burn, ctez `get_target` and the callback), with the amounts the oracle derives from the
 * recorded storages and parameters (the flat curve for swaps, the first-deposit and pro-rata formulas).
 */
type Json = Record<string, unknown>;
type Recorded = { parameters: { entrypoint: string; value: unknown }; storage: unknown; lazy_storage_diff?: unknown };
const USD = 'usdt_e_usdc_e_plenty_stable_swap';
const CTEZ = 'ctez_tez_plenty_stable_swap';
const VOLATILE = 'weth_e_ctez_plenty_volatile_swap';
const label = (s: string) => createHash('sha256').update(s).digest('hex');
/** The fixtures do not name the pools: stand-in addresses (the scripts are what identify the protocol). */
const kt1 = (s: string) => encodeAddress(`01${label(s).slice(0, 40)}00`);
const tz1 = (s: string) => encodeAddress(`0000${label(s).slice(0, 40)}`);
const POOL = {
  usd: kt1('plenty usdt.e/usdc.e stable'),
  ctez: kt1('plenty ctez/tez stable'),
  volatile: kt1('plenty weth.e/ctez'),
};
/** Shares a first deposit locks in lqtTotal without minting them to anyone (both contracts). */
const LOCKED_SHARES = 1000n;
/** lqtTotal after a pool's first deposit of a and b (both contracts): 2·√(a·b), locked shares included. */
const firstShares = (a: bigint, b: bigint) => 2n * isqrt(a * b);

const recorded = (dir: string, e: string) => readFixtureJson<Recorded>('defi', 'pytezos', dir, `${e}.json`);
const script = (dir: string) => readFixtureJson<Json>('defi', 'pytezos', dir, '__script__.json');
const typesOf = (dir: string) => ContractTypes.fromScript(script(dir))!;
const bps = (lpFee: bigint) => (10000 / Number(lpFee)).toFixed(2);
let groups = 0;
const group = (contents: Json[]) => ({ hash: encodeOpHash(label(`group ${++groups}`)), contents });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Storage = Record<string, any>;

/** The token/token pool's two recorded calls: the deposit that opened it, then a swap. */
function usdCalls() {
  const types = typesOf(USD);
  const st = (e: string) => types.storage(recorded(USD, e).storage) as Storage;
  const par = (e: string) => types.parameters(e, recorded(USD, e).parameters.value) as Storage;
  const [add, swap, addP, swapP] = [st('add_liquidity'), st('Swap'), par('add_liquidity'), par('Swap')];
  // Premises: precision 1 on both sides, and the deposit opened the pool (lqtTotal = 2·√(a·b)).
  expect([add.token1Precision, add.token2Precision]).to.deep.equal([1n, 1n]);
  expect(add.lqtTotal).to.equal(firstShares(add.token1Pool, add.token2Pool));
  // Swap names the token wanted (token1 here): token2 goes in, the curve's output less ⌊W/lpFee⌋ comes out.
  expect([swapP.requiredTokenAddress, swapP.requiredTokenId]).to.deep.equal([add.token1Address, add.token1Id]);
  const w = flatCurveOut(add.token2Pool, add.token1Pool, swapP.tokenAmountIn);
  const fee = w / add.lpFee;
  const oracle = {
    deposit: {
      amounts: [add.token1Pool, add.token2Pool],
      shares: add.lqtTotal - LOCKED_SHARES,
      owner: addP.recipient as string,
    },
    trade: {
      amountIn: swap.token2Pool - add.token2Pool,
      amountOut: add.token1Pool - swap.token1Pool,
      fee,
      receiver: swapP.recipient as string,
    },
  };
  expect(w - fee, 'the recorded reserves follow the curve').to.equal(oracle.trade.amountOut);
  const user = oracle.deposit.owner;
  const blockGroups = [
    group([
      externalCall(user, POOL.usd, 1, recorded(USD, 'add_liquidity'), 0n, [
        fa2Transfer(POOL.usd, add.token1Address, user, POOL.usd, add.token1Id, addP.token1_max),
        fa2Transfer(POOL.usd, add.token2Address, user, POOL.usd, add.token2Id, addP.token2_max),
        lpCall(POOL.usd, add.lqtAddress, 'mint', user, add.lqtTotal - LOCKED_SHARES),
      ]),
    ]),
    group([
      externalCall(swapP.recipient, POOL.usd, 2, recorded(USD, 'Swap'), 0n, [
        fa2Transfer(POOL.usd, add.token2Address, swapP.recipient, POOL.usd, add.token2Id, swapP.tokenAmountIn),
        fa2Transfer(POOL.usd, add.token1Address, POOL.usd, swapP.recipient, add.token1Id, w - fee),
      ]),
    ]),
  ];
  return { storages: [add, swap], oracle, groups: blockGroups };
}

/** The ctez/tez pool's recorded calls: the opening deposit, both swaps (call + callback) and a withdrawal. */
function ctezCalls() {
  const types = typesOf(CTEZ);
  const st = (e: string) => types.storage(recorded(CTEZ, e).storage) as Storage;
  const par = (e: string) => types.parameters(e, recorded(CTEZ, e).parameters.value) as Storage;
  const [add, buyOpen, buy, sellOpen, sell, remove] = [
    'add_liquidity',
    'tez_to_ctez',
    'tez_to_ctez_callback',
    'ctez_to_tez',
    'ctez_to_tez_callback',
    'remove_liquidity',
  ].map(st);
  const [addP, sellP, removeP] = [par('add_liquidity'), par('ctez_to_tez'), par('remove_liquidity')];
  const target = (e: string) => types.parameters(e, recorded(CTEZ, e).parameters.value) as bigint;
  const { ctezAddress: ctez, ctez_admin: ctezMain, lqtAddress: lqt, lpFee } = add;
  // Premise: the deposit opened the pool (lqtTotal = 2·√(tez·ctez)), so it brought the reserves after it.
  expect(add.lqtTotal).to.equal(firstShares(add.tezPool, add.ctezPool));
  // Each swap's call stores the trade and leaves the reserves; the callback (ctez's target) settles it.
  const tezIn = buyOpen.tradeAmount as bigint;
  const buyW =
    flatCurveOut(buyOpen.tezPool << Q48, target('tez_to_ctez_callback') * buyOpen.ctezPool, tezIn << Q48) /
    target('tez_to_ctez_callback');
  const sellW =
    flatCurveOut(
      target('ctez_to_tez_callback') * sellOpen.ctezPool,
      sellOpen.tezPool << Q48,
      target('ctez_to_tez_callback') * sellP.cashSold,
    ) >> Q48;
  // remove_liquidity pays lqtBurned/lqtTotal of each reserve before it: the least fixed point from the reserves after.
  const proRata = (after: bigint) => {
    const total = remove.lqtTotal + removeP.lqtBurned;
    let out = 0n;
    for (
      let next = (removeP.lqtBurned * after) / total;
      next !== out;
      next = (removeP.lqtBurned * (after + next)) / total
    )
      out = next;
    return out;
  };
  const withdrawer = tz1('ctez/tez liquidity provider');
  const oracle = {
    deposit: {
      amounts: [add.ctezPool, add.tezPool],
      shares: add.lqtTotal - LOCKED_SHARES,
      owner: addP.owner as string,
    },
    buy: {
      amountIn: buy.tezPool - buyOpen.tezPool,
      amountOut: buyOpen.ctezPool - buy.ctezPool,
      fee: buyW / lpFee,
      receiver: buyOpen.recipient as string,
    },
    sell: {
      amountIn: sell.ctezPool - sellOpen.ctezPool,
      amountOut: sellOpen.tezPool - sell.tezPool,
      fee: sellW / lpFee,
      receiver: sellP.recipient as string,
    },
    withdraw: {
      amounts: [proRata(remove.ctezPool), proRata(remove.tezPool)],
      shares: removeP.lqtBurned as bigint,
      owner: withdrawer,
    },
  };
  expect([oracle.buy.amountIn, buyW - oracle.buy.fee], 'tez_to_ctez follows the curve').to.deep.equal([
    tezIn,
    oracle.buy.amountOut,
  ]);
  expect([oracle.sell.amountIn, sellW - oracle.sell.fee], 'ctez_to_tez follows the curve').to.deep.equal([
    sellP.cashSold,
    oracle.sell.amountOut,
  ]);
  const settle = (e: string, user: string, counter: number, amount: bigint, pays: Json[]) =>
    group([
      externalCall(user, POOL.ctez, counter, recorded(CTEZ, e), amount, [
        internalCall(POOL.ctez, ctezMain, 'get_target', { string: `${POOL.ctez}%${e}_callback` }),
        internalCall(
          ctezMain,
          POOL.ctez,
          `${e}_callback`,
          recorded(CTEZ, `${e}_callback`).parameters.value,
          recorded(CTEZ, `${e}_callback`).storage,
        ),
        ...pays,
      ]),
    ]);
  const blockGroups = [
    group([
      externalCall(addP.owner, POOL.ctez, 3, recorded(CTEZ, 'add_liquidity'), add.tezPool, [
        fa12Transfer(POOL.ctez, ctez, addP.owner, POOL.ctez, addP.maxCashDeposited),
        lpCall(POOL.ctez, lqt, 'mint', addP.owner, add.lqtTotal - LOCKED_SHARES),
      ]),
    ]),
    settle('tez_to_ctez', buyOpen.recipient, 4, tezIn, [
      fa12Transfer(POOL.ctez, ctez, POOL.ctez, buyOpen.recipient, buyW - buyW / lpFee),
    ]),
    settle('ctez_to_tez', sellOpen.sender, 5, 0n, [
      fa12Transfer(POOL.ctez, ctez, sellOpen.sender, POOL.ctez, sellP.cashSold),
      tezPayment(POOL.ctez, sellP.recipient, sellW - sellW / lpFee),
    ]),
    group([
      externalCall(withdrawer, POOL.ctez, 6, recorded(CTEZ, 'remove_liquidity'), 0n, [
        lpCall(POOL.ctez, lqt, 'burn', withdrawer, removeP.lqtBurned),
        fa12Transfer(POOL.ctez, ctez, POOL.ctez, withdrawer, oracle.withdraw.amounts[0]),
        tezPayment(POOL.ctez, withdrawer, oracle.withdraw.amounts[1]),
      ]),
    ]),
  ];
  return { storages: [add, buy, sell, remove], oracle, groups: blockGroups, ctez, lqt, lpFee };
}

async function dispatch(
  blockGroups: Array<{ hash: string; contents: Json[] }>,
  register: (d: BlockDispatcher) => void,
): Promise<void> {
  const block = carrierBlockOf(blockGroups);
  const d = new BlockDispatcher();
  register(d);
  const lpTokens = Object.fromEntries(
    [
      typesOf(USD).storage(recorded(USD, 'add_liquidity').storage),
      typesOf(CTEZ).storage(recorded(CTEZ, 'add_liquidity').storage),
    ].map((s) => [(s as Storage).lqtAddress, FA12_SCRIPT]),
  );
  await d.dispatch(
    block,
    watchingContext(d, block, {
      [POOL.usd]: script(USD),
      [POOL.ctez]: script(CTEZ),
      [POOL.volatile]: script(VOLATILE),
      ...lpTokens,
    }),
  );
}

/** A holder's own call of an FA1.2 token's `transfer` (an LP token moved outside the pool). */
const holderTransfer = (token: string, from: string, to: string, value: bigint, counter: number) =>
  group([
    externalCall(from, token, counter, {
      parameters: { entrypoint: 'transfer', value: pair(str(from), pair(str(to), int(value))) },
      storage: { int: '0' },
    }),
  ]);

const reservesOf = (sink: RecordingSink, pool: string) =>
  sink
    .actions()
    .filter((a) => a.pool.contract === pool)
    .map((a) => [...a.supply.reserves, a.supply.lpSupply]);

describe('defi-dex: the Plenty stable adapter on real mainnet stable-pool calls (pytezos fixtures)', () => {
  it('a token/token pool: declaration, the opening deposit and a swap with the fee off its output', async () => {
    const usd = usdCalls();
    const sink = new RecordingSink();
    await dispatch(usd.groups, (d) => plentyStableAdapter.register(d, sink));
    const [add] = usd.storages;

    const decls = sink.calls.filter((c) => c.call === 'pool');
    expect(decls).to.have.length(1);
    expect(decls[0].call === 'pool' && decls[0].decl).to.deep.equal({
      contract: POOL.usd,
      pairId: 0,
      entity: 'plenty_stable',
      tokens: [
        { standard: 'fa2', contract: add.token1Address, tokenId: add.token1Id },
        { standard: 'fa2', contract: add.token2Address, tokenId: add.token2Id },
      ],
      lp: { standard: 'fa1.2', contract: add.lqtAddress },
      feesBps: bps(add.lpFee),
    });
    expect(sink.actions().map((a) => a.action.kind)).to.deep.equal(['deposit', 'trade']);
    expect(reservesOf(sink, POOL.usd)).to.deep.equal(usd.storages.map((s) => [s.token1Pool, s.token2Pool, s.lqtTotal]));
    const deposit = sink.actions()[0].action as DexLiquidityAction;
    expect({ amounts: deposit.amounts, shares: deposit.shares, owner: deposit.owner }).to.deep.equal(
      usd.oracle.deposit,
    );
    const trade = sink.actions()[1].action as DexTradeAction;
    const o = usd.oracle.trade;
    expect([trade.tokenIn, trade.tokenOut, trade.amountIn, trade.amountOut, trade.receiver]).to.deep.equal([
      1,
      0,
      o.amountIn,
      o.amountOut,
      o.receiver,
    ]);
    expect(trade.fees).to.deep.equal({ lp: { amount: o.fee, bps: bps(add.lpFee), token: 0 } });
  });

  it('the ctez/tez pool: each swap is one trade at its callback, with what both steps moved', async () => {
    const c = ctezCalls();
    const sink = new RecordingSink();
    await dispatch(c.groups, (d) => plentyStableAdapter.register(d, sink));

    const decls = sink.calls.filter((x) => x.call === 'pool');
    expect(decls).to.have.length(1);
    expect(decls[0].call === 'pool' && decls[0].decl).to.deep.equal({
      contract: POOL.ctez,
      pairId: 0,
      entity: 'plenty_stable',
      tokens: [{ standard: 'fa1.2', contract: c.ctez }, { standard: 'tez' }],
      lp: { standard: 'fa1.2', contract: c.lqt },
      feesBps: bps(c.lpFee),
    });
    // One action per user call: the swaps' opening calls (reserves not moved yet) report nothing.
    expect(sink.actions().map((a) => a.action.kind)).to.deep.equal(['deposit', 'trade', 'trade', 'withdraw']);
    expect(reservesOf(sink, POOL.ctez)).to.deep.equal(c.storages.map((s) => [s.ctezPool, s.tezPool, s.lqtTotal]));
    const [deposit, buy, sell, withdraw] = sink.actions().map((a) => a.action);
    const liquidity = (a: typeof deposit) => ({
      amounts: (a as DexLiquidityAction).amounts,
      shares: (a as DexLiquidityAction).shares,
      owner: (a as DexLiquidityAction).owner,
    });
    expect(liquidity(deposit)).to.deep.equal(c.oracle.deposit);
    expect(liquidity(withdraw)).to.deep.equal(c.oracle.withdraw);
    const trade = (a: typeof buy) => {
      const t = a as DexTradeAction;
      return [t.tokenIn, t.tokenOut, t.amountIn, t.amountOut, t.fees, t.sender, t.receiver, t.router];
    };
    const fee = (amount: bigint, token: number) => ({ lp: { amount, bps: bps(c.lpFee), token } });
    expect(trade(buy), 'tez_to_ctez').to.deep.equal([
      1,
      0,
      c.oracle.buy.amountIn,
      c.oracle.buy.amountOut,
      fee(c.oracle.buy.fee, 0),
      c.oracle.buy.receiver,
      c.oracle.buy.receiver,
      undefined,
    ]);
    expect(trade(sell), 'ctez_to_tez').to.deep.equal([
      0,
      1,
      c.oracle.sell.amountIn,
      c.oracle.sell.amountOut,
      fee(c.oracle.sell.fee, 1),
      c.oracle.sell.receiver,
      c.oracle.sell.receiver,
      undefined,
    ]);
  });

  it("LP token transfers move shares between owners, and only the transfers of a known pool's LP token", async () => {
    const c = ctezCalls();
    const owner = c.oracle.deposit.owner;
    const friend = tz1('LP token receiver');
    const groups = [
      c.groups[0],
      holderTransfer(c.lqt, owner, friend, 1234n, 7),
      holderTransfer(c.ctez, owner, friend, 99n, 8),
    ];
    const sink = new RecordingSink();
    await dispatch(groups, (d) => plentyStableAdapter.register(d, sink));
    const transfers = sink.calls.filter((x) => x.call === 'transfer');
    expect(transfers.map((x) => x.call === 'transfer' && [x.pool, x.transfer, x.origin.step.contract])).to.deep.equal([
      [{ contract: POOL.ctez, pairId: 0 }, { kind: 'transfer', from: owner, to: friend, shares: 1234n }, c.lqt],
    ]);
  });

  it('the stable and the volatile adapters never claim each other’s pools', async () => {
    const volatileCall = (e: string, counter: number) =>
      group([externalCall('tz1bGsPjPqEscSKoFMDJ1dz6Nwcjrw9Yp5wU', POOL.volatile, counter, recorded(VOLATILE, e))]);
    const all = [
      ...usdCalls().groups,
      ...ctezCalls().groups,
      volatileCall('AddLiquidity', 7),
      volatileCall('Swap', 8),
      volatileCall('RemoveLiquidity', 9),
    ];
    const [stable, volatile] = [new RecordingSink(), new RecordingSink()];
    await dispatch(all, (d) => {
      plentyStableAdapter.register(d, stable);
      plentyAdapter.register(d, volatile);
    });
    const pools = (s: RecordingSink) => [
      ...new Set(
        s.calls.map((x) => (x.call === 'pool' ? x.decl.contract : x.call === 'action' ? x.pool.contract : '')),
      ),
    ];
    expect(pools(stable)).to.deep.equal([POOL.usd, POOL.ctez]);
    expect(pools(volatile)).to.deep.equal([POOL.volatile]);
    expect(volatile.actions().map((a) => a.action.kind)).to.deep.equal(['deposit', 'trade', 'withdraw']);
  });
});
