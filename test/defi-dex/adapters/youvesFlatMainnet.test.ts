import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { youvesFlatAdapter } from '../../../plugins/defi-dex/adapters/youves-flat/adapter';
import type { DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { carrierBlockOf, watchingContext } from '../../indexer/support/templeGroups';
import { RecordingSink } from '../support/RecordingSink';

/*
 * The Youves flat adapter on a real applied mainnet group (test/fixtures/defi-dex/youves-flat, SOURCES.md):
 * 3Route sells kUSD to the kUSD/uUSD pool (`cashToToken`), which pulls the kUSD, sends uUSD to the router and
 * its reward recipient's cut to that one. Indexed with no node: the pool is read with the shipped types
 * (`youves-flat/types.ts`). Every expected number is the recording's own (its transfers, the storage after).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const POOL = 'KT1AVbWyM8E7DptyBCu4B5J5B7Nswkq7Skc6';
const HASH = 'oo8bUFnWXTCP1GP5bCPC9iYF3aXSWZXuYZ1Mb8rBSEd3v544ukB';
const contents: Json[] = JSON.parse(
  fs.readFileSync(path.resolve('test/fixtures/defi-dex/youves-flat/kusd-sirs-swap-tkey-cashback.json'), 'utf8'),
);
const address = (v: Json): string => v.string ?? encodeAddress(v.bytes.slice(0, 44));
const rows = contents.flatMap((c) => [
  { ...c, result: c.metadata.operation_result },
  ...(c.metadata.internal_operation_results ?? []),
]);

/** The recording's own numbers: the call, the storage after (the d7b57b97de9c914f layout, a flat comb), the moves. */
function recorded() {
  const call = rows.find((o) => o.destination === POOL && o.parameters.entrypoint === 'cashToToken');
  const st: Json[] = call.result.storage;
  const [tokenAddress, cashAddress, rewardRecipient] = [address(st[1]), address(st[5]), address(st[12])];
  const [to, , cashSold] = call.parameters.value;
  // FA1.2 `transfer (from, (to, value))` of the cash; FA2 `transfer [(from, [(to, (id, amount))])]` of the token.
  const cash = rows.filter((o) => o.destination === cashAddress && o.parameters?.entrypoint === 'transfer');
  const pulled = cash.find((o) => address(o.parameters.value.args[1].args[0]) === POOL);
  const sentBy = (from: string, after = rows) =>
    after
      .filter((o) => o.destination === tokenAddress && o.parameters?.entrypoint === 'transfer')
      .flatMap((o) => o.parameters.value)
      .filter((batch: Json) => address(batch.args[0]) === from)
      .flatMap((batch: Json) => batch.args[1])
      .map((tx: Json) => ({ to: address(tx.args[0]), amount: BigInt(tx.args[1].args[1].int) }));
  const sent = sentBy(POOL);
  // The router passed the uUSD on to its next hop in the same content.
  const [onward] = sentBy(address(to), rows.slice(rows.indexOf(call) + 1));
  return {
    sender: call.source as string,
    onward: onward.to,
    to: address(to),
    cashSold: BigInt(cashSold.int),
    cashIn: BigInt(pulled.parameters.value.args[1].args[1].int),
    tokenOut: sent.find((m) => m.to === address(to))!.amount,
    reward: sent.find((m) => m.to === rewardRecipient)!.amount,
    tokenPool: BigInt(st[0].int),
    cashPool: BigInt(st[4].int),
    lqtTotal: BigInt(st[9].int),
    tokenAddress,
    tokenId: BigInt(st[3].int),
    cashAddress,
    lqtAddress: address(st[10]),
    fee: [BigInt(st[13].int), BigInt(st[14].int)],
  };
}

describe('defi-dex: the Youves flat adapter on a real mainnet cashToToken (Temple), with no node', () => {
  it('the trade is what the chain moved, the reward in its own fee field, reserves and supply after', async () => {
    const r = recorded();
    // Premises from the recording: the pool pulled the cash sold, and paid two uUSD transfers.
    expect(r.cashIn).to.equal(r.cashSold);
    expect([r.tokenOut > 0n, r.reward > 0n, r.to]).to.deep.equal([true, true, r.sender]);

    const block = carrierBlockOf([{ hash: HASH, contents }]);
    const d = new BlockDispatcher();
    const sink = new RecordingSink();
    youvesFlatAdapter.register(d, sink);
    await d.dispatch(block, watchingContext(d, block, {}));

    const [decl] = sink.calls.filter((c) => c.call === 'pool');
    expect(decl.call === 'pool' && [decl.decl.tokens, decl.decl.lp]).to.deep.equal([
      [
        { standard: 'fa2', contract: r.tokenAddress, tokenId: r.tokenId },
        { standard: 'fa1.2', contract: r.cashAddress },
      ],
      { standard: 'fa1.2', contract: r.lqtAddress },
    ]);
    const trades = sink.actions('trade');
    expect(trades).to.have.length(1);
    const a = trades[0].action as DexTradeAction;
    // Cash (B) in, token (A) out; the router got the output and paid it on: the receiver is whom it paid.
    expect([a.tokenIn, a.tokenOut, a.router, a.receiver]).to.deep.equal([1, 0, r.sender, r.onward]);
    expect([a.amountIn, a.amountOut, a.fees.incentive?.amount]).to.deep.equal([r.cashIn, r.tokenOut, r.reward]);
    // The fee rate from the storage's ratio: 1 − numerator/denominator, half of it to each side.
    expect(r.fee).to.deep.equal([9985n, 10000n]);
    expect([a.fees.incentive?.bps, a.fees.lp?.bps]).to.deep.equal(['7.50', '7.50']);
    const s = trades[0].supply;
    expect([...s.reserves, s.lpSupply]).to.deep.equal([r.tokenPool, r.cashPool, r.lqtTotal]);
  });
});
