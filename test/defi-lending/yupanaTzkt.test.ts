import { Parser } from '@taquito/michel-codec';
import { expect } from 'chai';
import type { IndexContext } from '../../framework';
import { BlockDispatcher } from '../../framework/indexer/BlockDispatcher';
import { yupanaAdapter } from '../../plugins/defi-lending/adapters/yupana/adapter';
import { carrierBlockOf, nodeContext } from '../indexer/support/templeGroups';
import { readFixtureJson } from '../support/fixtures';
import { RecordingLendingSink } from './support/RecordingLendingSink';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The Yupana types this test needs, with the contract's annotations (yupana-protocol-core, and the
 * dipdup storage schema): the fixture is TzKT JSON, so the test writes it back as the node would
 * print it under these types. Fields the adapter does not read are left out of `tokens`.
 */
const SCRIPT = {
  code: new Parser().parseScript(`
    parameter (or (or (pair %borrow (nat %tokenId) (pair (nat %amount) (timestamp %deadline))) (or (nat %enterMarket) (nat %updateInterest)))
                  (or (pair %mint (nat %tokenId) (pair (nat %amount) (nat %minReceived)))
                      (or (pair %redeem (nat %tokenId) (pair (nat %amount) (nat %minReceived))) (pair %repay (nat %tokenId) (pair (nat %amount) (timestamp %deadline))))));
    storage (pair (pair %storage (big_map %ledger (pair address nat) nat)
                                 (pair (big_map %accounts (pair address nat) nat)
                                       (map %tokens nat (pair (or %mainToken (address %fA12) (pair %fA2 address nat))
                                                              (pair (nat %totalBorrowsF) (pair (nat %totalLiquidF) (pair (nat %totalSupplyF) (pair (nat %totalReservesF) (nat %borrowIndex)))))))))
                  (big_map %metadata string bytes));
    code { FAILWITH };`),
};

const ops = readFixtureJson<Json[]>('defi', 'dipdup', 'yupana_borrow_op_tzkt_hangzhou2net.json');
const YUPANA = ops.find((o) => o.parameter?.entrypoint === 'borrow')!.target.address as string;

/** The storage TzKT shows (its `storage` part), as Micheline under SCRIPT's storage type. */
function storage(s: Json): Json {
  const token = (m: Json) =>
    m.fA12
      ? { prim: 'Left', args: [{ string: m.fA12 }] }
      : { prim: 'Right', args: [{ prim: 'Pair', args: [{ string: m.fA2.address }, { int: m.fA2.nat }] }] };
  const tokens = Object.keys(s.tokens)
    .sort((a, b) => Number(a) - Number(b))
    .map((id) => {
      const t = s.tokens[id];
      return {
        prim: 'Elt',
        args: [
          { int: id },
          {
            prim: 'Pair',
            args: [
              token(t.mainToken),
              ...[t.totalBorrowsF, t.totalLiquidF, t.totalSupplyF, t.totalReservesF, t.borrowIndex].map((v) => ({
                int: v,
              })),
            ],
          },
        ],
      };
    });
  return {
    prim: 'Pair',
    args: [{ prim: 'Pair', args: [{ int: String(s.ledger) }, { int: String(s.accounts) }, tokens] }, { int: '1' }],
  };
}

/**
 * The `accounts` writes TzKT shows for a call, as the node's lazy_storage_diff (value: Pair allowances borrow
 * lastBorrowIndex).
 */
function accountsDiff(o: Json): Json[] {
  const updates = (o.diffs ?? [])
    .filter((d: Json) => d.path === 'storage.accounts')
    .map((d: Json) => {
      const { key, value } = d.content;
      return {
        key_hash: d.content.hash,
        key: { prim: 'Pair', args: [{ string: key.address }, { int: key.nat }] },
        value: {
          prim: 'Pair',
          args: [
            value.allowances.map((a: string) => ({ string: a })),
            { int: value.borrow },
            { int: value.lastBorrowIndex },
          ],
        },
      };
    });
  return updates.length === 0
    ? []
    : [{ kind: 'big_map', id: String(o.storage.storage.accounts), diff: { action: 'update', updates } }];
}

/** The FA2 transfer TzKT shows, as Micheline (TZIP-12 `transfer` list). */
function fa2Transfer(o: Json): Json {
  const value = o.parameter.value.map((b: Json) => ({
    prim: 'Pair',
    args: [
      { string: b.from_ },
      b.txs.map((tx: Json) => ({
        prim: 'Pair',
        args: [{ string: tx.to_ }, { prim: 'Pair', args: [{ int: tx.token_id }, { int: tx.amount }] }],
      })),
    ],
  }));
  return {
    kind: 'transaction',
    source: o.sender.address,
    nonce: o.nonce,
    amount: String(o.amount),
    destination: o.target.address,
    parameters: { entrypoint: 'transfer', value },
    result: { status: 'applied', consumed_milligas: '1000' },
  };
}

/**
 * The group's calls to Yupana (enterMarket, updateInterest ×2, borrow) in RPC form; the borrow with the FA2 transfer it
 * emitted.
 */
function contents(): Json[] {
  const params = (o: Json): Json => {
    const v = o.parameter.value;
    if (o.parameter.entrypoint === 'borrow')
      return { prim: 'Pair', args: [{ int: v.tokenId }, { int: v.amount }, { int: '1700000000' }] };
    return { int: v };
  };
  return ops
    .filter((o) => o.target.address === YUPANA && o.sender.address.startsWith('tz'))
    .map((o) => ({
      kind: 'transaction',
      source: o.sender.address,
      fee: String(o.bakerFee),
      counter: String(o.counter),
      gas_limit: String(o.gasLimit),
      storage_limit: String(o.storageLimit),
      amount: String(o.amount),
      destination: YUPANA,
      parameters: { entrypoint: o.parameter.entrypoint, value: params(o) },
      metadata: {
        balance_updates: [],
        operation_result: {
          status: 'applied',
          storage: storage(o.storage.storage),
          lazy_storage_diff: accountsDiff(o),
          consumed_milligas: '1000',
          storage_size: '1000',
        },
        internal_operation_results: ops
          .filter(
            (i) =>
              i.counter === o.counter &&
              i.nonce !== null &&
              i.sender.address === YUPANA &&
              i.parameter?.entrypoint === 'transfer',
          )
          .map(fa2Transfer),
      },
    }));
}

describe('defi-lending: the Yupana adapter on a recorded Yupana borrow (dipdup TzKT fixture, hangzhou2net)', () => {
  const borrow = ops.find((o) => o.parameter?.entrypoint === 'borrow')!;
  const paid = ops.find((o) => o.sender.address === YUPANA && o.parameter?.entrypoint === 'transfer')!;
  const enter = ops.find((o) => o.parameter?.entrypoint === 'enterMarket')!;
  const market = borrow.storage.storage.tokens[borrow.parameter.value.tokenId];
  let sink: RecordingLendingSink;

  before(async () => {
    const block = carrierBlockOf([{ hash: borrow.hash, contents: contents() }]);
    const d = new BlockDispatcher();
    sink = new RecordingLendingSink();
    yupanaAdapter.register(d, sink);
    await d.dispatch(block, { ...nodeContext({ [YUPANA]: SCRIPT }), block } as IndexContext);
  });

  it('declares the entered market and the borrowed one (pool id = token id) with the FA1.2 / FA2 token of their mainToken', () => {
    // Each handler runs over the block in turn: order by market, not by call.
    const decls = sink.calls.flatMap((c) => (c.call === 'market' ? [c.decl] : [])).sort((a, b) => a.poolId - b.poolId);
    const entered = enter.storage.storage.tokens[enter.parameter.value];
    const fa12 = { standard: 'fa1.2', contract: entered.mainToken.fA12 };
    const fa2 = { standard: 'fa2', contract: market.mainToken.fA2.address, tokenId: BigInt(market.mainToken.fA2.nat) };
    expect(decls).to.deep.equal([
      { contract: YUPANA, poolId: Number(enter.parameter.value), entity: 'yupana', debt: fa12, collateral: fa12 },
      {
        contract: YUPANA,
        poolId: Number(borrow.parameter.value.tokenId),
        entity: 'yupana',
        debt: fa2,
        collateral: fa2,
      },
    ]);
  });

  it("enterMarket sets the owner's collateral flag on its market (the markets big map the call wrote names it)", () => {
    const flags = sink.calls.filter((c) => c.call === 'collateral');
    const [diff] = enter.diffs.filter((d: Json) => d.path === 'storage.markets');
    expect(diff.content.value).to.deep.equal([enter.parameter.value]);
    expect(flags).to.deep.equal([
      {
        call: 'collateral',
        market: { contract: YUPANA, poolId: Number(enter.parameter.value) },
        owner: diff.content.key,
        used: true,
      },
    ]);
  });

  it('reports only the borrow (keeper calls and enterMarket are no events), with the amount the market paid out and the account the call wrote', () => {
    const actions = sink.calls.filter((c) => c.call === 'action');
    expect(actions).to.have.length(1);
    const a = actions[0].call === 'action' ? actions[0] : undefined;
    const [tx] = paid.parameter.value[0].txs;
    const [written] = borrow.diffs.filter((d: Json) => d.path === 'storage.accounts').map((d: Json) => d.content.value);
    expect(BigInt(tx.amount)).to.equal(BigInt(borrow.parameter.value.amount));
    expect(a!.action).to.deep.equal({
      kind: 'borrow',
      owner: borrow.sender.address,
      sender: borrow.sender.address,
      receiver: tx.to_,
      volume: BigInt(tx.amount),
      fee: 0n,
      account: { borrow: { scaled: BigInt(written.borrow), index: BigInt(written.lastBorrowIndex) } },
    });
    expect(a!.origin.match.hash).to.equal(borrow.hash);
  });

  it('each updateInterest reports an accrual of its market, in chain order before the borrow, with the totals and rates of the storage after it', () => {
    const F = 10n ** 18n;
    const updates = ops.filter((o) => o.parameter?.entrypoint === 'updateInterest');
    expect(updates).to.have.length(2);
    const expected = updates.map((o) => {
      const m = o.storage.storage.tokens[o.parameter.value];
      const [borrows, liquid, supply, reserves, index] = [
        m.totalBorrowsF,
        m.totalLiquidF,
        m.totalSupplyF,
        m.totalReservesF,
        m.borrowIndex,
      ].map(BigInt);
      return {
        call: 'accrue',
        market: { contract: YUPANA, poolId: Number(o.parameter.value) },
        supply: {
          totalDebt: borrows / F,
          totalCollateral: (liquid + borrows - reserves) / F,
          rates: { borrowIndex: index, liquidity: liquid + borrows - reserves, shares: supply },
        },
      };
    });
    expect(sink.calls.filter((c) => c.call === 'accrue')).to.deep.equal(expected);
    expect(sink.calls.map((c) => c.call)).to.deep.equal([
      'market',
      'collateral',
      'accrue',
      'market',
      'accrue',
      'action',
    ]);
  });

  it('reads the market totals from the storage after the borrow (…F fields ÷ 10^18)', () => {
    const a = sink.calls.find((c) => c.call === 'action')!;
    const F = 10n ** 18n;
    const [borrows, liquid, reserves] = [market.totalBorrowsF, market.totalLiquidF, market.totalReservesF].map(BigInt);
    expect(borrows > 0n, 'the borrow shows in the totals').to.equal(true);
    expect(a.call === 'action' && a.supply).to.deep.equal({
      totalDebt: borrows / F,
      totalCollateral: (liquid + borrows - reserves) / F,
      rates: {
        borrowIndex: BigInt(market.borrowIndex),
        liquidity: liquid + borrows - reserves,
        shares: BigInt(market.totalSupplyF),
      },
    });
  });
});
