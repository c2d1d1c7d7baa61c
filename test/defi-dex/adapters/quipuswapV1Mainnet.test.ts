import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { BlockNormalizer, type NormalizedBlock } from '../../../framework/chain';
import type { RawBlock } from '../../../framework/chain/model/RawBlock';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { quipuswapAdapter } from '../../../plugins/defi-dex/adapters/quipuswap/adapter';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import {
  carrierBlock,
  carrierBlockOf,
  TEMPLE_HASHES,
  templeContents,
  watchingContext,
} from '../../indexer/support/templeGroups';
import { readFixtureJson } from '../../support/fixtures';
import { RecordingSink, type SinkCall } from '../support/RecordingSink';

/*
 * QuipuSwap v1 pools of the 2021 factories (FA1.2 and FA2) in two full mainnet blocks, indexed with no
 * node answering scripts, no watch and no origination seen: the pools are recognized at their call,
 * mostly made through the parent entrypoint `use`. The oracle is the raw block JSON: what the pool moved
 * (its internal token and tez transfers, the call's amount) and the storage after each call, read by
 * position in the contract's record (quipuswap-core DexFA12.tz / DexFA2.tz at 12dbdde).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const LEVELS = [1621538, 1676122];
const CALLS = ['use', 'tezToTokenPayment', 'tokenToTezPayment', 'investLiquidity', 'divestLiquidity', 'withdrawProfit'];
const rawBlock = (level: number): Json =>
  readFixtureJson('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'mainnet', `mainnet-${level}.json`);
const address = (v: Json): string => v.string ?? encodeAddress(v.bytes);

/** One side (0 = left, 1 = right) of a raw pair, n-ary `Pair` and sequences read as right combs. */
function side(v: Json, i: 0 | 1): Json {
  const items: Json[] = Array.isArray(v) ? v : v.args;
  if (i === 0) return items[0];
  return items.length === 2 ? items[1] : Array.isArray(v) ? items.slice(1) : { prim: 'Pair', args: items.slice(1) };
}
const path = (v: Json, sides: string): Json => [...sides].reduce((x, s) => side(x, s === 'L' ? 0 : 1), v);

/** A pool's numbers in the raw storage after a call: the `storage` record is the storage's R.L. */
function poolNumbers(storage: Json, fa2: boolean) {
  const rec = path(storage, 'RL');
  const int = (sides: string) => BigInt(path(rec, sides).int);
  return {
    tezPool: int('LRLRR'),
    token: address(path(rec, 'LRRLL')),
    tokenPool: int(fa2 ? 'LRRRL' : 'LRRLR'),
    totalSupply: int(fa2 ? 'RLLL' : 'LRRRR'),
  };
}

interface RawCall {
  level: number;
  hash: string;
  pool: string;
  entrypoint: string;
  /** The group's signer, and the contract that called the pool when it was an internal call. */
  signer: string;
  router?: string;
  amount: bigint;
  storage: Json;
  /** What the pool sent after the call, up to its next call. */
  emitted: Json[];
  /** Every internal operation of the content after the call (a router passing the output on). */
  later: Json[];
}

/** Every applied call of a QuipuSwap v1 action entrypoint in raw groups (RPC form), top-level or internal. */
function rawCalls(level: number, groups: Json[]): RawCall[] {
  const out: RawCall[] = [];
  for (const group of groups) {
    for (const c of group.contents) {
      const ops = [{ ...c, result: c.metadata?.operation_result }, ...(c.metadata?.internal_operation_results ?? [])];
      ops.forEach((o: Json, i: number) => {
        const applied = o.kind === 'transaction' && o.result?.status === 'applied';
        if (!applied || !CALLS.includes(o.parameters?.entrypoint)) return;
        const rest = ops.slice(i + 1);
        const end = rest.findIndex((n: Json) => n.destination === o.destination && n.parameters);
        const emitted = (end < 0 ? rest : rest.slice(0, end)).filter((n: Json) => n.source === o.destination);
        const { destination: pool, parameters, result } = o;
        const [entrypoint, amount, router] = [parameters.entrypoint, BigInt(o.amount), i > 0 ? o.source : undefined];
        const [hash, signer] = [group.hash, c.source];
        out.push({
          level,
          hash,
          pool,
          entrypoint,
          signer,
          router,
          amount,
          storage: result.storage,
          emitted,
          later: rest,
        });
      });
    }
  }
  return out;
}

/** The token transfers in the raw internal operations (FA1.2 `Pair from (Pair to value)`, FA2 batches). */
function tokenMoves(ops: Json[]): Array<{ token: string; tokenId?: bigint; from: string; to: string; amount: bigint }> {
  return ops
    .filter((o) => o.parameters?.entrypoint === 'transfer')
    .flatMap((o) => {
      const v = o.parameters.value;
      const token = o.destination;
      if (!Array.isArray(v)) {
        const [to, amount] = v.args[1].args;
        return [{ token, from: address(v.args[0]), to: address(to), amount: BigInt(amount.int) }];
      }
      return v.flatMap((b: Json) =>
        b.args[1].map((tx: Json) => {
          const [tokenId, amount] = tx.args[1].args.map((n: Json) => BigInt(n.int));
          return { token, tokenId, from: address(b.args[0]), to: address(tx.args[0]), amount };
        }),
      );
    });
}

/** Each call is one trade, as the chain moved it: amounts, receiver (who got the output), sender and router. */
function checkTrades(calls: RawCall[], sink: RecordingSink): void {
  const trades = sink.actions('trade');
  const found = trades.map((t) => [t.level, t.origin.match.hash, t.pool.contract]);
  expect(found).to.deep.equal(calls.map((c) => [c.level, c.hash, c.pool]));
  calls.forEach((c, i) => {
    const moves = tokenMoves(c.emitted);
    const tez = c.emitted.filter((o) => o.kind === 'transaction' && !o.parameters);
    expect(moves, `${c.hash} ${c.pool}: one token transfer`).to.have.length(1);
    const [move, tezIn] = [moves[0], c.amount > 0n];
    if (tezIn) expect([tez.length, move.from], `${c.hash}: tez in, tokens out`).to.deep.equal([0, c.pool]);
    else expect([tez.length, move.to], `${c.hash}: tokens in, tez out`).to.deep.equal([1, c.pool]);
    const out = tezIn ? move : { amount: BigInt(tez[0].amount), to: tez[0].destination };
    // The receiver rule (docs/defi-dex.md): whom the pool paid; when that is the router that called it, whom the
    // router paid the same asset on to in the content (the signer when among them, else the largest), or the signer.
    type Payment = { from: string; to: string; amount: bigint };
    const sameAsset: Payment[] = tezIn
      ? tokenMoves(c.later).filter((m) => m.token === move.token && m.tokenId === move.tokenId)
      : c.later
          .filter((o: Json) => o.kind === 'transaction' && !o.parameters)
          .map((o: Json) => ({ from: o.source, to: o.destination, amount: BigInt(o.amount) }));
    const onward = sameAsset.filter((m) => m.from === c.router && m.to !== c.pool);
    const largest = (): string => onward.reduce((a, b) => (b.amount > a.amount ? b : a)).to;
    const paidTo =
      out.to !== c.router
        ? out.to
        : onward.length === 0 || onward.some((m) => m.to === c.signer)
          ? c.signer
          : largest();
    const expected = {
      tokenIn: tezIn ? 1 : 0,
      tokenOut: tezIn ? 0 : 1,
      amountIn: tezIn ? c.amount : move.amount,
      amountOut: out.amount,
      receiver: paidTo,
      sender: c.signer,
      router: c.router,
    };
    const { tokenIn, tokenOut, amountIn, amountOut, receiver, sender, router } = trades[i].action as DexTradeAction;
    const got = { tokenIn, tokenOut, amountIn, amountOut, receiver, sender, router };
    expect(got, `${c.hash} ${c.pool}`).to.deep.equal(expected);
  });
}

/** Reserves and LP supply are the storage after each call; the pool's token is the one it moved. */
function checkSupplies(calls: RawCall[], sink: RecordingSink): void {
  const trades = sink.actions('trade');
  const decls = sink.calls.filter((x): x is Extract<SinkCall, { call: 'pool' }> => x.call === 'pool');
  expect(decls.map((x) => x.decl.contract)).to.deep.equal([...new Set(calls.map((c) => c.pool))]);
  calls.forEach((c, i) => {
    const [move] = tokenMoves(c.emitted);
    const fa2 = move.tokenId !== undefined;
    const n = poolNumbers(c.storage, fa2);
    expect(n.token, `${c.pool}: the storage's token is the one moved`).to.equal(move.token);
    const { reserves, lpSupply } = trades[i].supply;
    expect([...reserves, lpSupply], `${c.hash} ${c.pool}`).to.deep.equal([n.tokenPool, n.tezPool, n.totalSupply]);
    const decl = decls.find((x) => x.decl.contract === c.pool)!.decl;
    const token = fa2
      ? { standard: 'fa2', contract: move.token, tokenId: move.tokenId }
      : { standard: 'fa1.2', contract: move.token };
    expect([decl.entity, decl.tokens[0]], c.pool).to.deep.equal([fa2 ? 'quipu_token' : 'quipu_v1', token]);
  });
}

/** The adapter alone on the dispatcher, fed blocks with a node that has no script for any contract. */
async function indexed(blocks: NormalizedBlock[]): Promise<RecordingSink> {
  const sink = new RecordingSink();
  const d = new BlockDispatcher();
  quipuswapAdapter.register(d, sink);
  for (const block of blocks) await d.dispatch(block, watchingContext(d, block, {}));
  return sink;
}

describe('defi-dex: QuipuSwap v1 on real mainnet blocks, with no node (2021 FA1.2 and FA2 factory pools)', () => {
  const calls = LEVELS.flatMap((level) => rawCalls(level, rawBlock(level).operations.flat()));
  let sink: RecordingSink;
  before(async () => {
    sink = await indexed(LEVELS.map((level) => new BlockNormalizer().normalize(rawBlock(level) as RawBlock)));
  });

  it('finds every applied call of the blocks, the `use` ones included, as one trade each', () => {
    // Premises from the raw JSON: five `use` calls (four in 1621538, one in 1676122) and two named ones.
    const useLevels = calls.filter((c) => c.entrypoint === 'use').map((c) => c.level);
    expect(useLevels).to.deep.equal([1621538, 1621538, 1621538, 1621538, 1676122]);
    expect(calls.filter((c) => c.entrypoint !== 'use')).to.have.length(2);
    checkTrades(calls, sink);
  });

  it('reports reserves and LP supply from the storage after each call, and the token the pool moved', () => {
    checkSupplies(calls, sink);
  });
});

describe('defi-dex: QuipuSwap v1 pools called by routers (Temple recording), with no node', () => {
  const NAME = 'wtz-arbitraging';
  const block = carrierBlock([NAME]);
  const calls = rawCalls(block.level, [{ hash: TEMPLE_HASHES[NAME], contents: templeContents(NAME) }]);

  it('reads a direct and a routed call of two FA2 pools: trades as moved, supplies from the storages', async () => {
    // Premises: the first pool is called by the signer, the second by a contract (internal call).
    expect(calls.map((c) => [c.entrypoint, c.router?.startsWith('KT1') ?? false])).to.deep.equal([
      ['tezToTokenPayment', false],
      ['tezToTokenPayment', true],
    ]);
    const sink = await indexed([block]);
    checkTrades(calls, sink);
    checkSupplies(calls, sink);
  });

  it("follows the pool's own share transfers (its FA2 ledger) once the pool is known, with no node", async () => {
    // A transfer of the first pool's shares, built on the recording's call (same signer, the storage after it).
    const call: Json = templeContents(NAME).find((x: Json) => x.destination === calls[0].pool);
    const to = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
    const tx = { prim: 'Pair', args: [{ string: to }, { prim: 'Pair', args: [{ int: '0' }, { int: '12345' }] }] };
    const batch = { prim: 'Pair', args: [{ string: call.source }, [tx]] };
    const metadata = { ...call.metadata, internal_operation_results: [] };
    const transfer = { ...call, amount: '0', parameters: { entrypoint: 'transfer', value: [batch] }, metadata };
    const hash = encodeOpHash('00'.repeat(32));
    const recorded = { hash: TEMPLE_HASHES[NAME], contents: templeContents(NAME) };
    const sink = await indexed([carrierBlockOf([recorded, { hash, contents: [transfer] }])]);
    const moved = sink.calls.map((x) => x.call === 'transfer' && [x.pool.contract, x.transfer]).filter(Boolean);
    expect(moved).to.deep.equal([[calls[0].pool, { kind: 'transfer', from: call.source, to, shares: 12345n }]]);
  });
});
