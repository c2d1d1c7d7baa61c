import { encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { plentyAdapter } from '../../../plugins/defi-dex/adapters/plenty/adapter';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { readFixtureJson } from '../../support/fixtures';
import { carrierBlockOf, watchingContext } from '../../indexer/support/templeGroups';
import { PLENTY_DIR, PLENTY_POOL, plentyContent, plentyLabel } from '../support/plentyRecording';
import { RecordingSink } from '../support/RecordingSink';

type Json = Record<string, unknown>;

describe('defi-dex: the Plenty adapter on real mainnet Plenty calls (pytezos fixtures)', () => {
  it('reads a mainnet volatile pool: tokens, LP token, fee and reserves from the storage after each call', async () => {
    const script = readFixtureJson<Json>(...PLENTY_DIR, '__script__.json');
    const types = ContractTypes.fromScript(script)!;
    const calls = ['AddLiquidity', 'Swap', 'RemoveLiquidity'];
    const block = carrierBlockOf(
      calls.map((e, i) => ({ hash: encodeOpHash(plentyLabel(e)), contents: [plentyContent(e, 1000 + i)] })),
    );
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    plentyAdapter.register(d, sink);
    await d.dispatch(block, watchingContext(d, block, { [PLENTY_POOL]: script }));

    // The oracle: the recorded storages read with the pool's own types.
    const stored = calls.map(
      (e) => types.storage(readFixtureJson<Json>(...PLENTY_DIR, `${e}.json`).storage) as Record<string, unknown>,
    );
    const [decl] = sink.calls.filter((c) => c.call === 'pool');
    expect(decl?.call === 'pool' && decl.decl).to.deep.include({
      contract: PLENTY_POOL,
      entity: 'plenty_v1',
      lp: { standard: 'fa1.2', contract: stored[0].lpTokenAddress },
      feesBps: (Math.floor(1_000_000 / Number(stored[0].lpFee)) / 100).toFixed(2),
    });
    const tokenOf = (n: 1 | 2) =>
      stored[0][`token${n}Check`]
        ? { standard: 'fa2', contract: stored[0][`token${n}Address`], tokenId: stored[0][`token${n}Id`] }
        : { standard: 'fa1.2', contract: stored[0][`token${n}Address`] };
    expect(decl?.call === 'pool' && decl.decl.tokens).to.deep.equal([tokenOf(1), tokenOf(2)]);

    const actions = sink.actions();
    expect(actions.map((a) => a.action.kind)).to.deep.equal(['deposit', 'trade', 'withdraw']);
    actions.forEach((a, i) =>
      expect([...a.supply.reserves, a.supply.lpSupply], calls[i]).to.deep.equal([
        stored[i].token1_pool,
        stored[i].token2_pool,
        stored[i].totalSupply,
      ]),
    );
    // Swap names the token wanted: it is the trade's output.
    const swap = readFixtureJson<{ parameters: { value: { args: Array<{ args: Array<{ string?: string }> }> } } }>(
      ...PLENTY_DIR,
      'Swap.json',
    ).parameters.value;
    const wanted = swap.args[1].args[0].string;
    const trade = actions[1].action as DexTradeAction;
    expect(trade.tokenOut).to.equal(wanted === stored[1].token1Address ? 0 : 1);
    expect(trade.receiver).to.equal(swap.args[0].args[1].string);
  });
});
