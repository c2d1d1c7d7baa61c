// Why: the Spicy adapter checked on a real mainnet router swap (Temple's recording), every number
// against what the chain itself recorded: transfers, storages, FA2 ledger diffs, the pair's answer.
import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { spicyAdapter } from '../../../plugins/defi-dex/adapters/spicy/adapter';
import { RESERVES_ANSWER, SPICY_ROUTER } from '../../../plugins/defi-dex/adapters/spicy/types';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { readFixtureJson } from '../../support/fixtures';
import { carrierBlockOf, TEMPLE_HASHES, templeContents, watchingContext } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const GROUP = 'wtz-arbitraging';
const address = (v: { bytes?: string; string?: string }): string => v.string ?? encodeAddress(v.bytes!);
const int = (v: { int: string }) => BigInt(v.int);

/** The moves of a raw FA2 `transfer` parameter sent to `token`. */
const fa2Moves = (token: string, value: Json[]) =>
  value.flatMap((b) =>
    (b.args[1] as Json[]).map((tx) => ({
      token,
      from: address(b.args[0]),
      to: address(tx.args[0]),
      amount: int(tx.args[1].args[1]),
    })),
  );

/** The router call's internal operations in a copy of the recorded group. */
const routedInternals = (contents: Json[]): Json[] =>
  contents.find((c) => c.destination === SPICY_ROUTER).metadata.internal_operation_results;

/** The group (as recorded, or edited) indexed by the Spicy adapter alone, through the dispatcher, no node. */
async function indexGroup(contents: Json[]): Promise<{ d: BlockDispatcher; sink: RecordingSink }> {
  const block = carrierBlockOf([{ hash: TEMPLE_HASHES[GROUP], contents }]);
  const d = new BlockDispatcher();
  const sink = new RecordingSink();
  spicyAdapter.register(d, sink);
  await d.dispatch(block, watchingContext(d, block, {}));
  return { d, sink };
}

describe('defi-dex: the Spicy adapter on a real mainnet swap (router → get_reserves, start_swap, finalize_…)', () => {
  const contents = templeContents(GROUP) as Json[];
  const routed = contents.find((c) => c.destination === SPICY_ROUTER);
  const internals = routedInternals(contents);
  const pair: string = internals.find((i) => i.parameters?.entrypoint === 'start_swap').destination;
  const calls = (ep: string) => internals.filter((i) => i.destination === pair && i.parameters?.entrypoint === ep);
  // The pair's storage after its last call, raw: ((…), (((reserve0, reserve1), (k, token0)), token1)).
  const finalStorage = calls('finalize_action')[0].result.storage as Json[];

  it("decodes the trade with no node and no origination, from the transfers and the pair's storages", async () => {
    const { d, sink } = await indexGroup(contents);

    // The oracle, from the raw recording.
    const moves = internals
      .filter((i) => i.parameters?.entrypoint === 'transfer')
      .flatMap((i) => fa2Moves(i.destination, i.parameters.value));
    const paidIn = moves.filter((m) => m.to === pair);
    const paidOut = moves.filter((m) => m.from === pair);
    expect([paidIn.length, paidOut.length]).to.deep.equal([1, 1]);
    const answer = internals.find((i) => i.source === pair && i.parameters?.entrypoint === 'reserves_callback')
      .parameters.value;
    const [before0, before1] = [int(answer.args[0].args[1]), int(answer.args[1].args[0])];
    const lp = int(answer.args[1].args[1]);
    const [after0, after1] = (finalStorage[1][0].args as Json[]).map(int);
    const token0 = { standard: 'fa2', contract: address(finalStorage[1][2]), tokenId: int(finalStorage[1][3].args[0]) };
    const token1 = { standard: 'fa2', contract: address(finalStorage[2]), tokenId: int(finalStorage[3].args[0]) };
    // The FA2 ledgers' own record of what the pair holds after the swap (key (pair, 0)).
    const held = internals
      .flatMap((i) => (i.result.lazy_storage_diff ?? []) as Json[])
      .flatMap((diff) => (diff.diff.updates ?? []) as Json[])
      .filter((u) => u.key?.args && address(u.key.args[0]) === pair)
      .map((u) => int(u.value));

    const decls = sink.calls.filter((c) => c.call === 'pool');
    expect(decls).to.have.length(1);
    const decl = decls[0].call === 'pool' ? decls[0] : undefined;
    const lpToken = { standard: 'fa2', contract: pair, tokenId: 0n };
    expect([decl?.decl.contract, decl?.decl.entity, decl?.decl.lp, decl?.decl.tokens]).to.deep.equal([
      pair,
      'spicy_v1',
      lpToken,
      [token0, token1],
    ]);
    // Declared with the reserves before the swap (price_before): the pair's own answer to get_reserves.
    expect([...(decl?.supply.reserves ?? []), decl?.supply.lpSupply]).to.deep.equal([before0, before1, lp]);
    expect(calls('start_swap')[0].result.storage[1][0].args.map(int)).to.deep.equal([before0, before1]);

    const actions = sink.actions();
    expect(actions).to.have.length(1);
    const tr = actions[0].action as DexTradeAction;
    const [inTok, outTok] = [paidIn[0], paidOut[0]];
    expect([inTok.token, outTok.token]).to.deep.equal([token0.contract, token1.contract]);
    expect([tr.kind, tr.tokenIn, tr.tokenOut, tr.amountIn, tr.amountOut]).to.deep.equal([
      'trade',
      0,
      1,
      inTok.amount,
      outTok.amount,
    ]);
    expect([tr.sender, tr.router, tr.receiver]).to.deep.equal([routed.source, routed.destination, outTok.to]);
    expect([...actions[0].supply.reserves, actions[0].supply.lpSupply]).to.deep.equal([after0, after1, lp]);
    expect(held).to.deep.equal([after0, after1]);
    expect([after0 - before0, before1 - after1]).to.deep.equal([inTok.amount, outTok.amount]);

    // The fee: the output the chain paid is the constant-product output of what the fee leaves credited
    // (at least that, less than one more unit credited would pay).
    const fee = tr.fees.lp!;
    expect([fee.bps, fee.token]).to.deep.equal(['30', 0]);
    const credited = inTok.amount - fee.amount;
    const curve = (x: bigint) => (x * before1) / (before0 + x);
    const brackets = curve(credited) <= outTok.amount && outTok.amount < curve(credited + 1n);
    expect(brackets, `credited ${credited}`).to.equal(true);

    // Recognized at its first call: the pair is watched from then on.
    expect(d.contracts.watches.roles(pair)).to.include('defi-dex:spicy');
  });

  it("skips, without an error, a finalize_action whose storage is not a pair's or not called by the pair", async () => {
    const edits = [(fin: Json) => (fin.result.storage = { int: '7' }), (fin: Json) => (fin.source = SPICY_ROUTER)];
    for (const edit of edits) {
      const edited = structuredClone(contents) as Json[];
      edit(routedInternals(edited).find((i) => i.parameters?.entrypoint === 'finalize_action'));
      const { sink } = await indexGroup(edited);
      expect(sink.calls).to.deep.equal([]);
    }
  });

  it("reads get_reserves' answer with the router's mainnet reserves_callback type", () => {
    const dir = `spicyswap_router_${SPICY_ROUTER}`;
    const fixture = readFixtureJson<Json>('defi', 'pytezos', dir, '__entrypoints__.json');
    // The RPC prints right combs flat (pair a b c); ours are nested (pair a (pair b c)): the same type.
    const nest = (x: Json): Json =>
      x.prim === 'pair' && x.args.length > 2 ? { ...x, args: [x.args[0], nest({ ...x, args: x.args.slice(1) })] } : x;
    expect(RESERVES_ANSWER).to.deep.equal(nest(fixture.entrypoints.reserves_callback));
  });
});
