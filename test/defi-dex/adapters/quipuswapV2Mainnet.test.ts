import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import type { IndexContext } from '../../../framework';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { scriptExpr } from '../../../framework/michelson/ScriptExpr';
import { SandboxChain } from '../../../framework/sandbox';
import { quipuswapV2Adapter } from '../../../plugins/defi-dex/adapters/quipuswap-v2/adapter';
import { QUIPUSWAP_V2_LABELS } from '../../../plugins/defi-dex/adapters/quipuswap-v2/sim/sandbox';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { carrierBlock, nodeContext, templeContents } from '../../indexer/support/templeGroups';
import { leadingInts } from '../support/poolCalls';
import { RecordingSink } from '../support/RecordingSink';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const CORE = 'KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43';
const P = 10n ** 18n;
const address = (v: { bytes?: string; string?: string }): string => v.string ?? encodeAddress(v.bytes!.slice(0, 44));
const flat = (v: Json): Json[] =>
  v?.prim === 'Pair'
    ? v.args.flatMap((x: Json, i: number) => (i === v.args.length - 1 ? flat(x) : [x]))
    : Array.isArray(v)
      ? v
      : [v];
const fa2 = (token: string) => ({
  prim: 'Left',
  args: [{ prim: 'Right', args: [{ prim: 'Pair', args: [{ string: token }, { int: '0' }] }] }],
});
const fa12 = (token: string) => ({ prim: 'Left', args: [{ prim: 'Left', args: [{ string: token }] }] });
const TEZ = { prim: 'Right', args: [{ prim: 'Unit' }] };

/** Every operation (content or internal) of a recorded group, in execution order. */
const rows = (contents: Json[]): Json[] =>
  contents.flatMap((c) => [c, ...(c.metadata.internal_operation_results ?? [])]);
const result = (o: Json): Json => o.metadata?.operation_result ?? o.result;

/**
 * The two recorded QuipuSwap v2 swaps (Temple fixtures): 3Route routing tez → pair 133 (token/tez) →
 * pair 182 (kUSD/token) as two `swap` calls, and a user's direct FA2/FA2 swap on pair 135. The pairs'
 * tokens (the `tokens` big map, which the groups do not touch) are served by the node stand-in, as the
 * node answers for pairs whose launch was not indexed; they are the tokens the recorded transfers move.
 */
describe('defi-dex: the QuipuSwap v2 adapter on real mainnet groups (Temple)', () => {
  const script = {
    code: (
      new SandboxChain({ seed: 'qsv2-types', profile: 'tiny' }).contracts.require(
        new SandboxChain({ seed: 'qsv2-types', profile: 'tiny' }).contracts.derivedAddress(QUIPUSWAP_V2_LABELS.core),
      ) as unknown as { code: unknown }
    ).code,
    storage: { int: '0' },
  };
  const TOKENS: Record<string, Json> = {
    133: { prim: 'Pair', args: [fa2('KT1K9EjmMZ3TB3qTZiZYjXLT4kHtFnc6ug5T'), TEZ] },
    182: {
      prim: 'Pair',
      args: [fa12('KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV'), fa2('KT1K9EjmMZ3TB3qTZiZYjXLT4kHtFnc6ug5T')],
    },
    135: {
      prim: 'Pair',
      args: [fa2('KT1PnUZCp3u2KzWr93pn4DD7HAJnm3rWVrgn'), fa2('KT1UQVEDf4twF2eMbrCKQAxN7YYunTAiCTTm')],
    },
  };

  async function run(name: string): Promise<{ sink: RecordingSink; contents: Json[] }> {
    const contents = templeContents(name) as Json[];
    const block = carrierBlock([name]);
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    quipuswapV2Adapter.register(d, sink);
    const base = nodeContext({ [CORE]: script });
    const tokensMap = Number(flat(flat(result(rows(contents).find((o) => o.destination === CORE)).storage)[0])[3].int);
    const node = async (path: string): Promise<unknown> => {
      for (const [id, v] of Object.entries(TOKENS))
        if (path === `context/big_maps/${tokensMap}/${scriptExpr({ int: id }, { prim: 'nat' })}`) return v;
      return base.node(path);
    };
    const watched: string[] = [];
    await d.dispatch(block, {
      ...base,
      node,
      block,
      watch: async () => void watched.push(CORE),
      watched: () => watched,
    } as unknown as IndexContext);
    return { sink, contents };
  }

  /** Oracle per swap call of the recording: its hops, fees, the pair entries it wrote and the tokens moved. */
  function swaps(contents: Json[]) {
    const all = rows(contents);
    return all.flatMap((o, i) => {
      if (o.destination !== CORE || o.parameters?.entrypoint !== 'swap') return [];
      const p = flat(o.parameters.value);
      const r = result(o);
      const inner = flat(flat(r.storage)[0]);
      const [fi, fs, fa] = leadingInts(inner[12], 3);
      const pairsMap = inner[5].int;
      const written = (r.lazy_storage_diff as Json[])
        .find((l) => l.id === pairsMap)
        .diff.updates.map((u: Json) => [Number(u.key.int), leadingInts(u.value, 5)]);
      const next = all.findIndex((x, j) => j > i && x.destination === CORE && x.parameters?.entrypoint);
      const emitted = all
        .slice(i + 1, next)
        .filter((x) => x.source === CORE && x.parameters?.entrypoint === 'transfer');
      const moved = emitted.map((x) => {
        const v = x.parameters.value;
        if (Array.isArray(v))
          return {
            token: x.destination,
            from: address(v[0].args[0]),
            amount: BigInt(v[0].args[1][0].args[1].args[1].int),
          };
        return { token: x.destination, from: address(v.args[0]), amount: BigInt(v.args[1].args[1].int) };
      });
      return [
        {
          hops: (p[1] as Json[]).map((h) => [Number(h.args[1].int), h.args[0].prim === 'Left'] as [number, boolean]),
          amount: BigInt(o.amount),
          amountIn: BigInt(p[5].int),
          receiver: address(p[3]),
          fees: { fi, fs, fa },
          written,
          moved,
          sender: o.source,
        },
      ];
    });
  }

  for (const name of ['xtz-kusd-swap', 'wtz-arbitraging']) {
    it(`${name}: one trade per swap hop, amounts from what moved, reserves from the pairs big map, the contract's fee split`, async () => {
      const { sink, contents } = await run(name);
      const want = swaps(contents);
      expect(want.length, 'recorded swaps').to.be.greaterThan(0);
      const trades = sink.actions('trade');
      expect(trades.length).to.equal(want.reduce((n, s) => n + s.hops.length, 0));
      let k = 0;
      for (const s of want) {
        for (const [id, aToB] of s.hops) {
          const tr = trades[k++];
          const a = tr.action as DexTradeAction;
          expect([tr.pool.contract, tr.pool.pairId, a.tokenIn, a.tokenOut]).to.deep.equal([
            CORE,
            id,
            aToB ? 0 : 1,
            aToB ? 1 : 0,
          ]);
          // Paid: the tez sent with the call, or the token transfer into DexCore; got: the transfer out of it.
          const paid = s.amount > 0n ? s.amount : s.moved.find((m) => m.from !== CORE)!.amount;
          const got = s.moved.find((m) => m.from === CORE)!.amount;
          // A router that receives the output stands for its user (the group's signer), as for every adapter.
          const receiver = s.receiver === s.sender && s.sender.startsWith('KT1') ? contents[0].source : s.receiver;
          expect([a.amountIn, a.amountOut, a.receiver, a.router]).to.deep.equal([
            paid,
            got,
            receiver,
            s.sender.startsWith('KT1') ? s.sender : undefined,
          ]);
          expect(a.amountIn).to.equal(s.amountIn);
          const kept = (a.amountIn * (P - s.fees.fi - s.fees.fs - s.fees.fa) + a.amountIn * s.fees.fs) / P;
          const referral = (a.amountIn * s.fees.fi) / P;
          expect([a.fees.lp?.amount, a.fees.referral?.amount, a.fees.burn?.amount]).to.deep.equal([
            (a.amountIn * s.fees.fs) / P,
            referral,
            a.amountIn - kept - referral,
          ]);
          const [, [ra, rb, , , supply]] = s.written.find(([w]: [number]) => w === id);
          expect([...tr.supply.reserves, tr.supply.lpSupply]).to.deep.equal([ra, rb, supply]);
        }
      }
      const decls = sink.calls.filter((c) => c.call === 'pool');
      expect(decls.map((c) => c.call === 'pool' && [c.decl.entity, c.decl.feesBps, c.decl.lp])).to.deep.equal(
        want.flatMap((s) =>
          s.hops.map(([id]) => ['quipu_v2', '35', { standard: 'fa2', contract: CORE, tokenId: BigInt(id) }]),
        ),
      );
    });
  }
});
