import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import type { IndexContext } from '../../../framework';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { SandboxChain } from '../../../framework/sandbox';
import { lbBurn } from '../../../plugins/defi-dex/adapters/lb/sim/pool';
import { lbAdapter } from '../../../plugins/defi-dex/adapters/lb/adapter';
import type { DexLiquidityAction, DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { carrierBlock, nodeContext, templeContents } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const LB = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const ROUTER = 'KT1V5XKmeypanMS9pR65REpqmVejWBZURuuT';
const NULL_ADDRESS = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
const address = (v: { bytes?: string; string?: string }): string => v.string ?? encodeAddress(v.bytes!);

describe('defi-dex: the Liquidity Baking adapter on a real mainnet group (Temple: removeLiquidity, then 3Route → tokenToXtz)', () => {
  it('decodes the withdrawal and the routed trade from what the CPMM moved, with the recorded storages as supplies', async () => {
    // LB's script: the sandbox model carries the mainnet CPMM's parameter and storage types.
    const script = {
      code: (
        new SandboxChain({ seed: 'lb-types', profile: 'tiny' }).contracts.require(LB) as unknown as { code: unknown }
      ).code,
      storage: { int: '0' },
    };
    const block = carrierBlock(['temple-wallet-sirs-xtz-swap']);
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    lbAdapter.register(d, sink);
    await d.dispatch(block, { ...nodeContext({ [LB]: script }), block } as IndexContext);

    // The oracle, from the recording's raw internal operations.
    const contents = templeContents('temple-wallet-sirs-xtz-swap') as Json[];
    const types = ContractTypes.fromScript(script)!;
    const remove = contents[0];
    const removeInternals = remove.metadata.internal_operation_results as Json[];
    const burned = -BigInt(
      removeInternals.find((i) => i.parameters?.entrypoint === 'mintOrBurn').parameters.value.args[0].int,
    );
    const tokensOut = BigInt(removeInternals.find((i) => i.destination === TZBTC).parameters.value.args[1].args[1].int);
    const tezOut = BigInt(removeInternals.find((i) => !i.parameters && i.kind === 'transaction').amount);
    const routed = contents[3].metadata.internal_operation_results as Json[];
    const swapAt = routed.findIndex((i) => i.destination === LB);
    const fromLb = routed.slice(swapAt + 1).filter((i) => i.source === LB);
    const tokensIn = BigInt(fromLb.find((i) => i.destination === TZBTC).parameters.value.args[1].args[1].int);
    const paid = BigInt(fromLb.find((i) => i.destination === ROUTER && !i.parameters).amount);
    const burn = BigInt(fromLb.find((i) => i.destination === NULL_ADDRESS).amount);

    const actions = sink.actions();
    expect(actions.map((a) => a.action.kind)).to.deep.equal(['withdraw', 'trade']);
    const w = actions[0].action as DexLiquidityAction;
    expect([w.owner, w.shares, w.amounts]).to.deep.equal([remove.source, burned, [tokensOut, tezOut]]);
    const removeArgs = remove.parameters.value;
    expect(w.receiver).to.equal(address(Array.isArray(removeArgs) ? removeArgs[0] : removeArgs.args[0]));
    const tr = actions[1].action as DexTradeAction;
    expect([
      tr.router,
      tr.sender,
      tr.receiver,
      tr.tokenIn,
      tr.tokenOut,
      tr.amountIn,
      tr.amountOut,
      tr.fees.burn?.amount,
    ]).to.deep.equal([ROUTER, contents[3].source, contents[3].source, 0, 1, tokensIn, paid, burn]);
    // Supplies: the storage after each call, read with LB's types.
    const storages = [remove.metadata.operation_result.storage, routed[swapAt].result.storage].map(
      (s) => types.storage(s) as { tokenPool: bigint; xtzPool: bigint; lqtTotal: bigint },
    );
    actions.forEach((a, i) =>
      expect([...a.supply.reserves, a.supply.lpSupply]).to.deep.equal([
        storages[i].tokenPool,
        storages[i].xtzPool,
        storages[i].lqtTotal,
      ]),
    );
    const [decl] = sink.calls.filter((c) => c.call === 'pool');
    expect(decl.call === 'pool' && decl.decl.tokens).to.deep.equal([
      { standard: 'fa1.2', contract: TZBTC },
      { standard: 'tez' },
    ]);
  });

  it("the sandbox's LB model burns what the chain burned of the tez the CPMM paid out (rounded up)", () => {
    const routed = (templeContents('temple-wallet-sirs-xtz-swap') as Json[])[3].metadata
      .internal_operation_results as Json[];
    const fromLb = routed.filter((i) => i.source === LB && !i.parameters);
    const paid = BigInt(fromLb.find((i) => i.destination === ROUTER).amount);
    const burn = BigInt(fromLb.find((i) => i.destination === NULL_ADDRESS).amount);
    // gross = what left the pool; the model must burn exactly what the chain sent to the null address.
    expect(lbBurn(paid + burn)).to.equal(burn);
  });
});
