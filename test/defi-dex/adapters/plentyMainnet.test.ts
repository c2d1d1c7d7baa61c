import { encodeAddress, encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { plentyAdapter } from '../../../plugins/defi-dex/adapters/plenty/adapter';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { readFixtureJson } from '../../support/fixtures';
import { carrierBlockOf, watchingContext } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';

type Json = Record<string, unknown>;
const DIR = ['defi', 'pytezos', 'weth_e_ctez_plenty_volatile_swap'] as const;
const label = (s: string) => createHash('sha256').update(s).digest('hex');
/** The fixtures do not name the pool: a stand-in KT1 (the script is what identifies the protocol). */
const POOL = encodeAddress(`01${label('plenty weth.e/ctez').slice(0, 40)}00`);

/** One recorded call as an applied manager operation to POOL (parameters, storage after, big map diffs). */
function content(entrypoint: string, counter: number): Json {
  const f = readFixtureJson<Json>(...DIR, `${entrypoint}.json`);
  return {
    kind: 'transaction',
    source: 'tz1bGsPjPqEscSKoFMDJ1dz6Nwcjrw9Yp5wU',
    fee: '1000',
    counter: String(counter),
    gas_limit: '100000',
    storage_limit: '1000',
    amount: '0',
    destination: POOL,
    parameters: f.parameters,
    metadata: {
      balance_updates: [],
      operation_result: {
        status: 'applied',
        storage: f.storage,
        lazy_storage_diff: f.lazy_storage_diff ?? [],
        consumed_milligas: '1000',
        storage_size: '1000',
      },
    },
  };
}

describe('defi-dex: the Plenty adapter on real mainnet Plenty calls (pytezos fixtures)', () => {
  it('reads a mainnet volatile pool: tokens, LP token, fee and reserves from the storage after each call', async () => {
    const script = readFixtureJson<Json>(...DIR, '__script__.json');
    const types = ContractTypes.fromScript(script)!;
    const calls = ['AddLiquidity', 'Swap', 'RemoveLiquidity'];
    const block = carrierBlockOf(
      calls.map((e, i) => ({ hash: encodeOpHash(label(e)), contents: [content(e, 1000 + i)] })),
    );
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    plentyAdapter.register(d, sink);
    await d.dispatch(block, watchingContext(d, block, { [POOL]: script }));

    // The oracle: the recorded storages read with the pool's own types.
    const stored = calls.map(
      (e) => types.storage(readFixtureJson<Json>(...DIR, `${e}.json`).storage) as Record<string, unknown>,
    );
    const [decl] = sink.calls.filter((c) => c.call === 'pool');
    expect(decl?.call === 'pool' && decl.decl).to.deep.include({
      contract: POOL,
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
      ...DIR,
      'Swap.json',
    ).parameters.value;
    const wanted = swap.args[1].args[0].string;
    const trade = actions[1].action as DexTradeAction;
    expect(trade.tokenOut).to.equal(wanted === stored[1].token1Address ? 0 : 1);
    expect(trade.receiver).to.equal(swap.args[0].args[1].string);
  });
});
