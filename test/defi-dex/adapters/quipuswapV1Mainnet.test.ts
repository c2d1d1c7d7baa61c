import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import { BlockNormalizer } from '../../../framework/chain';
import type { RawBlock } from '../../../framework/chain/model/RawBlock';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { quipuswapAdapter } from '../../../plugins/defi-dex/adapters/quipuswap/adapter';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { watchingContext } from '../../indexer/support/templeGroups';
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
  signer: string;
  amount: bigint;
  storage: Json;
  /** What the pool sent after the call, up to its next call. */
  emitted: Json[];
}

/** Every applied call of a QuipuSwap v1 action entrypoint in the raw blocks, top-level or internal. */
function rawCalls(): RawCall[] {
  const out: RawCall[] = [];
  for (const level of LEVELS) {
    for (const group of rawBlock(level).operations.flat()) {
      for (const c of group.contents) {
        const ops = [{ ...c, result: c.metadata?.operation_result }, ...(c.metadata?.internal_operation_results ?? [])];
        ops.forEach((o: Json, i: number) => {
          const applied = o.kind === 'transaction' && o.result?.status === 'applied';
          if (!applied || !CALLS.includes(o.parameters?.entrypoint)) return;
          const rest = ops.slice(i + 1);
          const end = rest.findIndex((n: Json) => n.destination === o.destination && n.parameters);
          const emitted = (end < 0 ? rest : rest.slice(0, end)).filter((n: Json) => n.source === o.destination);
          const { destination: pool, parameters, result } = o;
          const [entrypoint, signer, amount] = [parameters.entrypoint, c.source, BigInt(o.amount)];
          out.push({ level, hash: group.hash, pool, entrypoint, signer, amount, storage: result.storage, emitted });
        });
      }
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

describe('defi-dex: QuipuSwap v1 on real mainnet blocks, with no node (2021 FA1.2 and FA2 factory pools)', () => {
  const sink = new RecordingSink();
  const calls = rawCalls();

  before(async () => {
    const d = new BlockDispatcher();
    quipuswapAdapter.register(d, sink);
    for (const level of LEVELS) {
      const block = new BlockNormalizer().normalize(rawBlock(level) as RawBlock);
      // The node has no script for any contract (and nothing else).
      await d.dispatch(block, watchingContext(d, block, {}));
    }
  });

  it('finds every applied call of the blocks, the `use` ones included, as one trade each', () => {
    // Premises from the raw JSON: five `use` calls (four in 1621538, one in 1676122) and two named ones.
    const useLevels = calls.filter((c) => c.entrypoint === 'use').map((c) => c.level);
    expect(useLevels).to.deep.equal([1621538, 1621538, 1621538, 1621538, 1676122]);
    expect(calls.filter((c) => c.entrypoint !== 'use')).to.have.length(2);
    const trades = sink.actions('trade');
    const found = trades.map((t) => [t.level, t.origin.match.hash, t.pool.contract]);
    expect(found).to.deep.equal(calls.map((c) => [c.level, c.hash, c.pool]));
  });

  it('reports what the chain moved: amounts in and out, receiver, sender', () => {
    const trades = sink.actions('trade');
    calls.forEach((c, i) => {
      const t = trades[i].action as DexTradeAction;
      const moves = tokenMoves(c.emitted);
      const tez = c.emitted.filter((o) => o.kind === 'transaction' && !o.parameters);
      expect(moves, `${c.hash} ${c.pool}: one token transfer`).to.have.length(1);
      const [move, paid] = [moves[0], tez[0]];
      const expected =
        c.amount > 0n
          ? { tokenIn: 1, tokenOut: 0, amountIn: c.amount, amountOut: move.amount, receiver: move.to }
          : { tokenIn: 0, tokenOut: 1, amountIn: move.amount, amountOut: BigInt(paid.amount), receiver: paid.destination };
      if (c.amount === 0n) expect([tez.length, move.to], `${c.hash}: tokens in, tez out`).to.deep.equal([1, c.pool]);
      else expect([tez.length, move.from], `${c.hash}: tez in, tokens out`).to.deep.equal([0, c.pool]);
      const { tokenIn, tokenOut, amountIn, amountOut, receiver, sender } = t;
      const got = { tokenIn, tokenOut, amountIn, amountOut, receiver, sender };
      expect(got, `${c.hash} ${c.pool}`).to.deep.equal({ ...expected, sender: c.signer });
    });
  });

  it('reports reserves and LP supply from the storage after each call, and the token the pool moved', () => {
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
  });
});
