import { expect } from 'chai';
import type { GroupMatch, NormalizedOperation } from '../../framework';
import { type PaidAsset, PoolCall } from '../../framework/defi/PoolCall';

/**
 * The receiver rule every DEX adapter applies (`PoolCall.receiver`): the account that got the output,
 * following it when the pool paid the router that called it and the router passed it on in the group.
 */
const USER = 'tz1d1kvysZxSbA1wTNwyH8zcpyP7KGjgzxNY';
const OTHER = 'tz1YaAfoyHY53UgtKyLd18rGeEvM4YHDx99c';
const FEES = 'tz1Y3PNaCHuSTtxwaaHsbt5bQPqvK58uAhtM';
const ROUTER = 'KT1V5XKmeypanMS9pR65REpqmVejWBZURuuT';
const POOL = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const TOKEN = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const TZBTC: PaidAsset = { token: TOKEN, tokenId: 0n };

type Op = Pick<NormalizedOperation, 'sender' | 'receiver' | 'entrypoint' | 'volume' | 'parameters'>;
const tez = (sender: string, receiver: string, volume: bigint): Op => ({ sender, receiver, volume });
/** An FA1.2 `transfer` of tzBTC that `sender` (the token's caller) sent. */
const fa12 = (sender: string, from: string, to: string, value: bigint): Op => ({
  sender,
  receiver: TOKEN,
  entrypoint: 'transfer',
  volume: 0n,
  parameters: { prim: 'Pair', args: [{ string: from }, { prim: 'Pair', args: [{ string: to }, { int: `${value}` }] }] },
});

/** A group: `first` is the pool call (by the router when `routed`), then `after` in order, all in one content. */
function poolCall(routed: boolean, after: Op[]): PoolCall {
  const opI = routed ? 1 : 0;
  const op = (o: Op, i: number) => ({ opC: 0, opI: i, type: 'transaction', ...o }) as NormalizedOperation;
  const call = op({ sender: routed ? ROUTER : USER, receiver: POOL, entrypoint: 'tokenToXtz', volume: 0n }, opI);
  const head = routed ? [op({ sender: USER, receiver: ROUTER, entrypoint: 'execute', volume: 0n }, 0)] : [];
  const group = [...head, call, ...after.map((o, i) => op(o, opI + 1 + i))];
  const match = { signer: USER, group } as unknown as GroupMatch;
  return new PoolCall(match, { op: call, contract: POOL, sender: call.sender });
}

describe('defi-dex: the receiver of a pool output (PoolCall.receiver)', () => {
  it('is the account the pool paid when no router called it', () => {
    expect(poolCall(false, [tez(POOL, OTHER, 5n)]).receiver(OTHER, 'tez')).to.equal(OTHER);
  });

  it('is the user when the pool paid the router and the router paid the user (tez or tokens)', () => {
    const tezPaid = poolCall(true, [tez(POOL, ROUTER, 100n), tez(ROUTER, FEES, 1n), tez(ROUTER, USER, 99n)]);
    expect(tezPaid.receiver(ROUTER, 'tez')).to.equal(USER);
    const tokensPaid = poolCall(true, [fa12(POOL, POOL, ROUTER, 100n), fa12(ROUTER, ROUTER, USER, 99n)]);
    expect(tokensPaid.receiver(ROUTER, TZBTC)).to.equal(USER);
  });

  it("is whom the router passed the output on to, the largest payment of the output's asset", () => {
    const passedOn = [tez(ROUTER, FEES, 500n), fa12(ROUTER, ROUTER, FEES, 1n), fa12(ROUTER, ROUTER, OTHER, 99n)];
    const call = poolCall(true, [fa12(POOL, POOL, ROUTER, 100n), ...passedOn]);
    expect(call.receiver(ROUTER, TZBTC)).to.equal(OTHER);
  });

  it('is the user when the router is not seen passing the output on', () => {
    expect(poolCall(true, [tez(POOL, ROUTER, 100n)]).receiver(ROUTER, 'tez')).to.equal(USER);
    const otherAsset = poolCall(true, [tez(POOL, ROUTER, 100n), fa12(ROUTER, ROUTER, OTHER, 7n)]);
    expect(otherAsset.receiver(ROUTER, 'tez')).to.equal(USER);
  });
});
