import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { IndexContext } from '../../../framework';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { SandboxChain } from '../../../framework/sandbox';
import { dexterAdapter } from '../../../plugins/defi-dex/adapters/dexter/adapter';
import { lbAdapter } from '../../../plugins/defi-dex/adapters/lb/adapter';
import type { DexAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { carrierBlock, carrierBlockOf, nodeContext } from '../../indexer/support/templeGroups';
import {
  callContent,
  DEXTER_DIRS,
  dexterScript,
  movesOf,
  recordedCalls,
  tokensBought,
  tokenTransfer,
  withReserves,
  type Moves,
  type RecordedCall,
} from '../support/dexterCalls';
import { RecordingSink } from '../support/RecordingSink';

const label = (s: string) => createHash('sha256').update(s).digest('hex');
/** The recordings do not name their pools: stand-in KT1s (the code is what identifies the protocol). */
const standIn = (name: string) => encodeAddress(`01${label(name).slice(0, 40)}00`);
const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const LB = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';

interface Pool {
  name: keyof typeof DEXTER_DIRS;
  address: string;
  calls: RecordedCall[];
}

const POOLS: Pool[] = [
  {
    name: 'tzbtc',
    address: standIn('dexter tzbtc/xtz'),
    calls: recordedCalls(DEXTER_DIRS.tzbtc, ['addLiquidity', 'removeLiquidity', 'tokenToXtz', 'tokenToToken']),
  },
  {
    name: 'usdtz',
    address: standIn('dexter usdtz/xtz'),
    calls: recordedCalls(DEXTER_DIRS.usdtz, ['addLiquidity', 'removeLiquidity', 'tokenToXtz', 'xtzToToken']),
  },
];
/** Who signs each call: the owner the call names (the recorded calls were made by their owners), else the receiver. */
const signer = (c: RecordedCall): string => String(c.p.owner ?? c.p.to);
/** The fee Dexter v1 takes: what `in·997/1000` leaves out, computed here apart from the adapter's helper. */
const fee = (amountIn: bigint, token: number) => ({ amount: amountIn - (amountIn * 997n) / 1000n, bps: '30', token });

/** The action the adapter must report for a call, from the oracle's moves and the recorded parameters. */
function expected(c: RecordedCall, m: Moves, sender: string): DexAction {
  const p = c.p;
  switch (c.entrypoint) {
    case 'xtzToToken':
      return {
        kind: 'trade',
        sender,
        receiver: p.to,
        router: undefined,
        tokenIn: 1,
        tokenOut: 0,
        amountIn: m.amount,
        amountOut: m.token!.value,
        fees: { lp: fee(m.amount, 1) },
      };
    case 'tokenToXtz':
    case 'tokenToToken':
      return {
        kind: 'trade',
        sender,
        receiver: m.tez!.to,
        router: undefined,
        tokenIn: 0,
        tokenOut: 1,
        amountIn: p.tokensSold,
        amountOut: m.tez!.value,
        fees: { lp: fee(p.tokensSold, 0) },
      };
    case 'addLiquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: p.owner,
        router: undefined,
        owner: p.owner,
        amounts: [m.token!.value, m.amount],
        shares: m.shares,
      };
    default:
      return {
        kind: 'withdraw',
        sender,
        receiver: p.to,
        router: undefined,
        owner: p.owner,
        amounts: [m.token!.value, m.tez!.value],
        shares: p.lqtBurned,
      };
  }
}

/** Both pools' recorded calls, oldest first per pool, one group each, in one carrier block. */
async function indexRecordedCalls(): Promise<{ sink: RecordingSink; moves: Map<RecordedCall, Moves> }> {
  const moves = new Map<RecordedCall, Moves>();
  const groups = POOLS.flatMap((pool, i) =>
    pool.calls.map((c, j) => {
      const m = movesOf(c, pool.address, signer(c));
      moves.set(c, m);
      return {
        hash: encodeOpHash(label(`${pool.name} ${c.entrypoint}`)),
        contents: [callContent(c, pool.address, signer(c), m, 1000 + 10 * i + j)],
      };
    }),
  );
  const block = carrierBlockOf(groups);
  const d = new BlockDispatcher();
  const sink = new RecordingSink();
  dexterAdapter.register(d, sink);
  // The output pool of tokenToToken has Dexter's code too: its xtzToToken hop matches, but the recording has no storage
  // of it.
  const scripts = Object.fromEntries(
    [
      ...POOLS.map((p) => p.address),
      POOLS[0].calls.find((c) => c.entrypoint === 'tokenToToken')!.p.outputDexterContract,
    ].map((a) => [a, dexterScript()]),
  );
  await d.dispatch(block, { ...nodeContext(scripts), block } as IndexContext);
  return { sink, moves };
}

describe('defi-dex: the Dexter v1 adapter on real mainnet Dexter calls (pytezos fixtures: tzBTC/XTZ and USDtz/XTZ)', () => {
  it('declares each pool at its first call: tez and the FA1.2 token of its storage, no LP token, 0.3%', async () => {
    const { sink } = await indexRecordedCalls();
    const decls = sink.calls.flatMap((c) => (c.call === 'pool' ? [c] : []));
    expect(decls.map((d) => d.decl.contract)).to.deep.equal(POOLS.map((p) => p.address));
    decls.forEach((d, i) => {
      const first = POOLS[i].calls[0];
      expect(d.decl).to.deep.equal({
        contract: POOLS[i].address,
        pairId: 0,
        entity: 'dexter',
        tokens: [{ standard: 'fa1.2', contract: first.s.tokenAddress }, { standard: 'tez' }],
        lp: null,
        feesBps: '30',
      });
      expect([...d.supply.reserves, d.supply.lpSupply]).to.deep.equal([
        first.s.tokenPool,
        first.s.xtzPool,
        first.s.lqtTotal,
      ]);
    });
    // SOURCES.md names tzBTC's address: the tzBTC pool's storage must point at it.
    expect(POOLS[0].calls[0].s.tokenAddress).to.equal(TZBTC);
  });

  it('reports every call with amounts from what the pool moved and the reserves and lqtTotal of the storage after it', async () => {
    const { sink, moves } = await indexRecordedCalls();
    const calls = POOLS.flatMap((p) => p.calls.map((c) => ({ pool: p, c })));
    const actions = sink.actions();
    expect(actions.map((a) => `${a.pool.contract} ${a.action.kind}`)).to.deep.equal(
      calls.map(({ pool, c }) => `${pool.address} ${expected(c, moves.get(c)!, signer(c)).kind}`),
    );
    actions.forEach((a, i) => {
      const { c } = calls[i];
      expect(a.action, `${calls[i].pool.name} ${c.entrypoint}`).to.deep.equal(expected(c, moves.get(c)!, signer(c)));
      expect([...a.supply.reserves, a.supply.lpSupply], c.entrypoint).to.deep.equal([
        c.s.tokenPool,
        c.s.xtzPool,
        c.s.lqtTotal,
      ]);
    });
  });

  it('the oracle agrees with what the recordings fix: bounds of the parameters, owners in the accounts diffs, lqtTotal between calls', async () => {
    const { moves } = await indexRecordedCalls();
    for (const pool of POOLS) {
      for (const c of pool.calls) {
        const m = moves.get(c)!;
        if (c.entrypoint === 'tokenToXtz')
          expect(m.tez!.value >= c.p.minXtzBought, `${pool.name} minXtzBought`).to.equal(true);
        if (c.entrypoint === 'removeLiquidity')
          expect([m.tez!.value >= c.p.minXtzWithdrawn, m.token!.value >= c.p.minTokensWithdrawn]).to.deep.equal([
            true,
            true,
          ]);
        if (c.entrypoint === 'addLiquidity')
          expect(m.shares >= c.p.minLqtMinted && m.token!.value <= c.p.maxTokensDeposited).to.equal(true);
        // The accounts big map changes the owner's balance only.
        const diffs = (c.raw.big_map_diff ?? []) as Array<{ key: { bytes: string } }>;
        if (c.entrypoint.endsWith('Liquidity'))
          expect(diffs.map((d) => encodeAddress(d.key.bytes))).to.deep.equal([c.p.owner]);
      }
    }
    // tzBTC: the recorded removeLiquidity came right before the recorded addLiquidity (no liquidity call
    // between them): the shares the add minted are the lqtTotal difference of the two recorded storages.
    const [remove, add] = POOLS[0].calls;
    expect([remove.entrypoint, add.entrypoint]).to.deep.equal(['removeLiquidity', 'addLiquidity']);
    expect(moves.get(add)!.shares).to.equal(add.s.lqtTotal - remove.s.lqtTotal);
  });

  it('tokenToToken is a trade on the source pool only: the tez hop to the output pool is not reported without that pool`s storage', async () => {
    const { sink } = await indexRecordedCalls();
    const hop = POOLS[0].calls.find((c) => c.entrypoint === 'tokenToToken')!;
    expect(sink.calls.filter((c) => c.call !== 'pool' && c.pool.contract === hop.p.outputDexterContract)).to.deep.equal(
      [],
    );
    const trade = sink.actions('trade').find((a) => a.origin.step.entrypoint === 'tokenToToken')!;
    expect(trade.action.kind === 'trade' && trade.action.receiver).to.equal(hop.p.outputDexterContract);
  });

  it('Dexter and Liquidity Baking claim only their own contracts', async () => {
    // LB's script: the sandbox model carries the mainnet CPMM's parameter and storage types.
    const lbScript = {
      code: (
        new SandboxChain({ seed: 'lb-types', profile: 'tiny' }).contracts.require(LB) as unknown as { code: unknown }
      ).code,
      storage: { int: '0' },
    };
    const lbGroup = carrierBlock(['temple-wallet-sirs-xtz-swap']);
    const dexter = new BlockDispatcher();
    const dexterSink = new RecordingSink();
    dexterAdapter.register(dexter, dexterSink);
    await dexter.dispatch(lbGroup, { ...nodeContext({ [LB]: lbScript }), block: lbGroup } as IndexContext);
    expect(dexterSink.calls).to.deep.equal([]);

    const lb = new BlockDispatcher();
    const lbSink = new RecordingSink();
    lbAdapter.register(lb, lbSink);
    const dexterBlock = carrierBlockOf(
      POOLS.flatMap((p) =>
        p.calls.map((c) => ({
          hash: encodeOpHash(label(`lb ${p.name} ${c.entrypoint}`)),
          contents: [callContent(c, p.address, signer(c), movesOf(c, p.address, signer(c)), 1)],
        })),
      ),
    );
    const scripts = Object.fromEntries(POOLS.map((p) => [p.address, dexterScript()]));
    await lb.dispatch(dexterBlock, { ...nodeContext(scripts), block: dexterBlock } as IndexContext);
    // The block's LB subsidy may declare LB's own pool; nothing of Dexter's contracts is LB's.
    const own = (c: (typeof lbSink.calls)[number]) => ('decl' in c ? c.decl.contract : c.pool.contract) === LB;
    expect(lbSink.calls.filter((c) => !own(c))).to.deep.equal([]);
    // The control: the same block gives the Dexter adapter its calls.
    const control = new BlockDispatcher();
    const controlSink = new RecordingSink();
    dexterAdapter.register(control, controlSink);
    await control.dispatch(dexterBlock, { ...nodeContext(scripts), block: dexterBlock } as IndexContext);
    expect(controlSink.actions().length).to.equal(8);
  });
});

/** One dispatch of built groups (contents per group) with Dexter's code at `pools`. */
async function dispatchBuilt(groups: unknown[][], pools: string[], sink = new RecordingSink()): Promise<RecordingSink> {
  const block = carrierBlockOf(
    groups.map((contents, i) => ({
      hash: encodeOpHash(label(`built ${i}`)),
      contents: contents as Array<Record<string, unknown>>,
    })),
  );
  const d = new BlockDispatcher();
  dexterAdapter.register(d, sink);
  await d.dispatch(block, {
    ...nodeContext(Object.fromEntries(pools.map((a) => [a, dexterScript()]))),
    block,
  } as IndexContext);
  return sink;
}

describe('defi-dex: the Dexter v1 adapter on groups built around the recorded calls (cases the recordings do not hold)', () => {
  const [tzbtc, usdtz] = POOLS;
  const call = (pool: Pool, entrypoint: string) => pool.calls.find((c) => c.entrypoint === entrypoint)!;

  it('tokenToToken: the output pool reports its own xtzToToken, with the source pool as router', async () => {
    const t2t = call(tzbtc, 'tokenToToken');
    const out = t2t.p.outputDexterContract as string;
    // The output pool's storage after the hop is the USDtz pool's recorded xtzToToken storage (another
    // day's state): the hop's tokens are what Dexter's rule gives on it for the tez the source pool sent.
    const after = call(usdtz, 'xtzToToken');
    const m = movesOf(t2t, tzbtc.address, signer(t2t));
    m.tez = { ...m.tez!, storage: after.raw.storage };
    const bought = tokensBought(after.s, m.tez.value)!;
    const hopPaid = tokenTransfer(after.s.tokenAddress, out, out, t2t.p.to, bought);
    const sink = await dispatchBuilt(
      [[callContent(t2t, tzbtc.address, signer(t2t), m, 1, [hopPaid])]],
      [tzbtc.address, out],
    );
    const actions = sink.actions();
    expect(actions.map((a) => a.pool.contract)).to.deep.equal([tzbtc.address, out]);
    expect(actions[0].action).to.deep.equal(expected(t2t, m, signer(t2t)));
    expect(actions[1].action).to.deep.equal({
      kind: 'trade',
      sender: signer(t2t),
      receiver: t2t.p.to,
      router: tzbtc.address,
      tokenIn: 1,
      tokenOut: 0,
      amountIn: m.tez.value,
      amountOut: bought,
      fees: { lp: fee(m.tez.value, 1) },
    });
    expect([...actions[1].supply.reserves, actions[1].supply.lpSupply]).to.deep.equal([
      after.s.tokenPool,
      after.s.xtzPool,
      after.s.lqtTotal,
    ]);
  });

  it('removeLiquidity by an approved spender burns the owner`s shares; default and updateTokenPoolInternal move the reserves as updates', async () => {
    const remove = call(usdtz, 'removeLiquidity');
    const spender = 'tz1burnburnburnburnburnburnburjAYjjX';
    const m = movesOf(remove, usdtz.address, spender);
    const reward = 1_234_567n;
    const rewarded = withReserves(remove.raw.storage, { xtzPool: remove.s.xtzPool + reward });
    const synced = remove.s.tokenPool + 4321n;
    const manager = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
    const applied = (storage: unknown) => ({
      status: 'applied',
      storage,
      consumed_milligas: '1000',
      storage_size: '1000',
    });
    const tx = (source: string, amount: bigint, parameters: unknown, result: unknown, counter: number) => ({
      kind: 'transaction',
      source,
      fee: '1000',
      counter: String(counter),
      gas_limit: '100000',
      storage_limit: '0',
      amount: String(amount),
      destination: usdtz.address,
      ...(parameters ? { parameters } : {}),
      metadata: { balance_updates: [], operation_result: result, internal_operation_results: [] as unknown[] },
    });
    // updateTokenPool asks the token for the pool's balance; its callback sets tokenPool.
    const sync = tx(manager, 0n, { entrypoint: 'updateTokenPool', value: { string: manager } }, applied(rewarded), 3);
    sync.metadata.internal_operation_results = [
      {
        kind: 'transaction',
        source: usdtz.address,
        nonce: 0,
        amount: '0',
        destination: remove.s.tokenAddress,
        parameters: {
          entrypoint: 'getBalance',
          value: {
            prim: 'Pair',
            args: [{ string: usdtz.address }, { string: `${usdtz.address}%updateTokenPoolInternal` }],
          },
        },
        result: { status: 'applied', consumed_milligas: '1000' },
      },
      {
        kind: 'transaction',
        source: remove.s.tokenAddress,
        nonce: 1,
        amount: '0',
        destination: usdtz.address,
        parameters: { entrypoint: 'updateTokenPoolInternal', value: { int: String(synced) } },
        result: applied(withReserves(rewarded, { tokenPool: synced })),
      },
    ];
    const sink = await dispatchBuilt(
      [
        [callContent(remove, usdtz.address, spender, m, 1)],
        [tx(manager, reward, undefined, applied(rewarded), 2)],
        [sync],
      ],
      [usdtz.address],
    );
    const actions = sink.actions();
    expect(actions[0].action).to.deep.equal(expected(remove, m, spender));
    expect(actions.slice(1).map((a) => a.action.kind === 'update' && a.action.amounts)).to.deep.equal([
      [0n, reward],
      [synced - remove.s.tokenPool, 0n],
    ]);
    expect(actions.slice(1).map((a) => [...a.supply.reserves, a.supply.lpSupply])).to.deep.equal([
      [remove.s.tokenPool, remove.s.xtzPool + reward, remove.s.lqtTotal],
      [synced, remove.s.xtzPool + reward, remove.s.lqtTotal],
    ]);
  });
});
