import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { plainValue } from '../../../framework/michelson/PlainValue';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { quipuswapV3Adapter } from '../../../plugins/defi-dex/adapters/quipuswap-v3/adapter';
import { QUIPU_V3_POOL } from '../../../plugins/defi-dex/adapters/quipuswap-v3/types';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { carrierBlockOf, watchingContext } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';

/*
 * The QuipuSwap V3 adapter on a real applied mainnet group (test/fixtures/defi-dex/quipuswap-v3, SOURCES.md): a
 * `y_to_x` on the USDt/wTEZ pool, which pulls the wTEZ and sends USDt to `to_dx`. The pool's origination is not in
 * the recording and no node answers: it is read with the shipped types (`quipuswap-v3/types.ts`, derived from the
 * source), which the recorded call, its storage after and its big map diffs are checked to fit. Every expected
 * number is the recording's own (its transfers, the storage after).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const POOL = 'KT1DZZG2Neaq5FH6ARtwWrPDro1ZZiHkHRBA';
const HASH = 'opBwkhpjPu5Xb5awwABVry3mtGa7zFhpfHcpnuk47emmqmVWJrs';
const contents: Json[] = JSON.parse(
  fs.readFileSync(path.resolve('test/fixtures/defi-dex/quipuswap-v3/quipuswap-arbitraging.json'), 'utf8'),
);
const address = (v: Json): string => v.string ?? encodeAddress(v.bytes.slice(0, 44));
const rows: Json[] = contents.flatMap((c) => [
  { ...c, result: c.metadata.operation_result },
  ...(c.metadata.internal_operation_results ?? []),
]);
const call = rows.find((o) => o.destination === POOL && o.parameters?.entrypoint === 'y_to_x');

/** The FA2 transfers of `token` in the recording: `[(from, [(to, (id, amount))])]`. */
const fa2Moves = (token: string) =>
  rows
    .filter((o) => o.destination === token && o.parameters?.entrypoint === 'transfer')
    .flatMap((o) => o.parameters.value)
    .flatMap((b: Json) =>
      b.args[1].map((tx: Json) => ({
        from: address(b.args[0]),
        to: address(tx.args[0]),
        id: BigInt(tx.args[1].args[0].int),
        amount: BigInt(tx.args[1].args[1].int),
      })),
    );

/** The big maps the storage type declares, by name: key and value types. */
function bigMapTypes(type: Json, out = new Map<string, { key: Json; value: Json }>()): typeof out {
  if (type?.prim === 'big_map') out.set(type.annots[0].slice(1), { key: type.args[0], value: type.args[1] });
  else for (const a of type?.args ?? []) bigMapTypes(a, out);
  return out;
}

describe('defi-dex: the QuipuSwap V3 adapter on a real mainnet y_to_x (Temple), with no node', () => {
  it('the recorded call, storage after and big map diffs fit the shipped types', () => {
    const types = QUIPU_V3_POOL.types;
    expect(types.parameters('y_to_x', call.parameters.value, { strict: true })).to.not.equal(undefined);
    const storage = types.storage(call.result.storage, { strict: true }) as Json;
    const maps = bigMapTypes(types.storageType);
    // The big maps' ids in the storage (the cumulatives buffer's `map` is inside its record).
    const idOf = (n: string) => String(storage[n] ?? storage.cumulatives_buffer[n]);
    const names = new Map([...maps.keys()].map((n) => [idOf(n), n]));
    const written: string[] = [];
    for (const { id, diff } of call.result.lazy_storage_diff)
      for (const u of diff.updates ?? []) {
        const t = maps.get(names.get(id)!)!;
        written.push(names.get(id)!);
        expect(plainValue(t.key, u.key, { strict: true }), id).to.not.equal(undefined);
        if (u.value) expect(plainValue(t.value, u.value, { strict: true }), id).to.not.equal(undefined);
      }
    // A swap crossing a tick writes it, and its cumulatives buffer: the chain's ids name those two big maps.
    expect([...new Set(written)].sort()).to.deep.equal(['map', 'ticks']);
  });

  it('the trade is what the chain moved, liquidity and price from the storage after', async () => {
    const st: Json = QUIPU_V3_POOL.types.storage(call.result.storage, { strict: true });
    const [x, y] = [st.constants.token_x.fa2, st.constants.token_y.fa2];
    const pulled = fa2Moves(y.token_address).filter((m) => m.to === POOL && m.id === y.token_id);
    const paid = fa2Moves(x.token_address).filter((m) => m.from === POOL && m.id === x.token_id);
    expect([pulled.length, paid.length]).to.deep.equal([1, 1]);

    const block = carrierBlockOf([{ hash: HASH, contents }]);
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    quipuswapV3Adapter.register(d, sink);
    await d.dispatch(block, watchingContext(d, block, {}));

    const [decl] = sink.calls.filter((c) => c.call === 'pool');
    expect(decl.call === 'pool' && [decl.decl.tokens, decl.decl.feesBps]).to.deep.equal([
      [
        { standard: 'fa2', contract: x.token_address, tokenId: x.token_id },
        { standard: 'fa2', contract: y.token_address, tokenId: y.token_id },
      ],
      String(st.constants.fee_bps),
    ]);
    const trades = sink.actions('trade');
    expect(trades).to.have.length(1);
    const a = trades[0].action as DexTradeAction;
    // Y in, X out, to `to_dx` (the group's signer, who called the pool directly).
    expect([a.tokenIn, a.tokenOut, a.sender, a.receiver, a.router]).to.deep.equal([
      1,
      0,
      contents[0].source,
      paid[0].to,
      undefined,
    ]);
    expect([a.amountIn, a.amountOut]).to.deep.equal([pulled[0].amount, paid[0].amount]);
    const s = trades[0].supply;
    // The active liquidity, and the price Y per X as sqrt_price (2^80 fixed point) squared.
    expect([s.lpSupply, s.marginal]).to.deep.equal([st.liquidity, [1n << 160n, st.sqrt_price * st.sqrt_price]]);
  });
});
