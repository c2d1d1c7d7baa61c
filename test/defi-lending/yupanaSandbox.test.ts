import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { yupanaMarket } from '../../plugins/defi-lending/adapters/yupana/sim/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { expectReorgMatchesClean } from '../support/ReorgCheck';
import { withApiColumns } from '../support/apiColumns';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const EVENT_COLUMNS = [
  'pool',
  'height',
  'event_type',
  'owner',
  'volume',
  'debt',
  'collateral',
  'fee',
  'interest',
  'sender',
  'receiver',
  'tx_hash',
];
const POSITION_COLUMNS = [
  'position',
  'owner',
  'balance',
  'debt',
  'deposited',
  'withdrawn',
  'borrowed',
  'repaid',
  'liquidated',
  'sent',
  'received',
  'interest_earned',
  'interest_paid',
  'interest_pending',
  'shares',
  'borrow_scaled',
  'borrow_index',
  'is_closed',
  'open_height',
  'close_height',
];
const POOL_COLUMNS = [
  'pool',
  'total_collateral',
  'total_debt',
  'num_deposits',
  'num_borrows',
  'debt_token',
  'collateral_token',
  'entity',
  'update_height',
];
const KIND: Record<string, string> = {
  mint: 'deposit',
  redeem: 'withdraw',
  borrow: 'borrow',
  repay: 'repay',
  liquidate: 'liquidate',
};
/** Yupana's fixed point. */
const P = 10n ** 18n;

type Node = { prim?: string; args?: Node[]; int?: string; string?: string } | Node[];
/** A Micheline value's leaves in order, right-comb pairs flattened (the test's own reading of the raw storage). */
const leaves = (v: Node): Node[] => (!Array.isArray(v) && v.prim === 'Pair' ? v.args!.flatMap(leaves) : [v]);
const num = (v: Node): bigint => BigInt((v as { int: string }).int);

/**
 * Yupana's `tokens[id]` figures, read from the raw storage `Pair ledger accounts { Elt id (Pair borrows liquid supply
 * reserves index time) }`.
 */
interface Market {
  borrows: bigint;
  liquid: bigint;
  supply: bigint;
  reserves: bigint;
  index: bigint;
}
function marketsOf(storage: unknown): Map<string, Market> {
  const [, , tokens] = leaves(storage as Node);
  return new Map(
    (tokens as Node[]).map((elt) => {
      const [id, value] = (elt as { args: Node[] }).args;
      const [borrows, liquid, supply, reserves, index] = leaves(value).map(num);
      return [String(num(id)), { borrows, liquid, supply, reserves, index }];
    }),
  );
}
const owned = (m: Market) => m.liquid + m.borrows - m.reserves;

/** Long enough for every kind of lending call of the model to occur among the `defi` traffic. */
const LEVELS = 160;

describe('defi-lending: the Yupana-style market on the sandbox chain', function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'lend-yupana', profile: 'tiny', traffic: ['defi-lending:yupana'] });
  let t: TestInstance;
  let market: ReturnType<typeof yupanaMarket>;
  /** Every applied call to the market, in chain order. */
  let ops: NormalizedOperation[];
  let calls: NormalizedOperation[];
  /** Every applied operation of the chain, and the level of each. */
  let all: NormalizedOperation[];
  const levelOf = new Map<NormalizedOperation, number>();
  let events: CsvRow[];
  /** Pool rows after indexing up to each checkpoint level, with the level. */
  const snapshots: { level: number; pools: CsvRow[] }[] = [];
  const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]);
  /** Rows of the Yupana market's pools (the sandbox has other lending protocols too). */
  const mine = (r: CsvRow) => r.pool.startsWith(`${market.address}_`);
  const tokenIdOf = (c: NormalizedOperation) => String(num(leaves(c.parameters as Node)[0]));
  /** Whose position a call moves: the borrower (third parameter) of a liquidation, else the caller. */
  const ownerOf = (c: NormalizedOperation) =>
    c.entrypoint === 'liquidate' ? (leaves(c.parameters as Node)[2] as { string: string }).string : c.sender!;
  /**
   * The `(owner, id)` entries a call left in one of the market's big maps (ledger 0th, accounts 1st in the storage):
   * the last write of each key.
   */
  const writes = (c: NormalizedOperation, which: 0 | 1) => {
    const id = num(leaves(c.storage as Node)[which]);
    const all = c.bigMapDiffs
      .flatMap((d) =>
        d.action === 'update' && d.bigMapId === Number(id)
          ? [{ key: leaves(d.key as Node), value: leaves(d.value as Node) }]
          : [],
      )
      .map((w) => ({ owner: (w.key[0] as { string: string }).string, id: String(num(w.key[1])), value: w.value }));
    return [...new Map(all.map((w) => [`${w.owner}:${w.id}`, w])).values()];
  };

  before(async () => {
    t = await startTestInstance({ plugins: plugins() });
    chain.bakeTo(LEVELS);
    market = yupanaMarket(chain.contracts);
    const blocks = canonical(chain);
    for (const b of blocks) for (const o of b.operations) levelOf.set(o, b.level);
    all = blocks.flatMap((b) => b.operations);
    ops = all.filter(
      (o) => o.receiver === market.address && o.hash !== '' && o.isSuccess && o.entrypoint !== undefined,
    );
    calls = ops.filter((o) => o.entrypoint! in KIND);
    // Checkpoints: after keeper groups that only accrued interest (the pool must follow without a user call), and the
    // head.
    const keeperLevels = [
      ...new Set(
        ops
          .filter(
            (o) => o.entrypoint === 'updateInterest' && !ops.some((x) => x.hash === o.hash && x.entrypoint! in KIND),
          )
          .map((o) => levelOf.get(o)!),
      ),
    ];
    const levels = [
      ...keeperLevels.filter((_, i) => i % Math.ceil(keeperLevels.length / 3) === 0),
      chain.headLevel,
    ].sort((a, b) => a - b);
    for (const level of levels) {
      await indexSandbox(t, chain, { toLevel: level });
      snapshots.push({ level, pools: (await readTable(t, 'lend_pool', POOL_COLUMNS)).filter(mine) });
    }
    events = (await readTable(t, 'lend_event', EVENT_COLUMNS)).filter(mine);
  });
  after(() => t?.close());

  it('records one event per lending call of the model, on the market of its token id, with the amount the token transfer moved', () => {
    for (const e of Object.keys(KIND))
      expect(
        calls.some((c) => c.entrypoint === e),
        `${e} calls in the chain`,
      ).to.equal(true);
    expect(events.map((e) => [e.tx_hash, e.event_type, e.pool])).to.deep.equal(
      calls.map((c) => [c.hash, KIND[c.entrypoint!], `${market.address}_${tokenIdOf(c)}`]),
    );
    calls.forEach((c, i) => {
      // The call's own transfer: a group may batch several calls (the deployer's first deposits).
      const [transfer] = all.filter(
        (o) => o.hash === c.hash && o.opC === c.opC && o.entrypoint === 'transfer' && o.isSuccess,
      );
      // FA1.2 transfer: Pair from (Pair to value).
      const moved = num(leaves(transfer.parameters as Node)[2]);
      const receiver = c.entrypoint === 'liquidate' ? ownerOf(c) : c.sender;
      expect(
        [events[i].volume, events[i].owner, events[i].sender, events[i].receiver, events[i].fee],
        c.hash,
      ).to.deep.equal([String(moved), ownerOf(c), c.sender, receiver, '0']);
    });
  });

  it('each event carries the market totals of the raw storage after it: totalBorrowsF / 10^18 and (liquid + borrows − reserves) / 10^18', () => {
    calls.forEach((c, i) => {
      const m = marketsOf(c.storage).get(tokenIdOf(c))!;
      expect([events[i].debt, events[i].collateral], c.hash).to.deep.equal([
        String(m.borrows / P),
        String(owned(m) / P),
      ]);
    });
  });

  it("interest accrues with Yupana's formula: the storage index grows by rate × seconds, and each event reports what its borrow gained (borrow × index / lastBorrowIndex − borrow)", () => {
    const accrued = ops
      .filter((o) => o.entrypoint === 'updateInterest')
      .map((o) => marketsOf(o.storage).get(tokenIdOf(o))!);
    expect(
      accrued.some((m) => m.index > P),
      'some market accrued interest',
    ).to.equal(true);
    const accounts = new Map<string, { borrow: bigint; last: bigint }>();
    let paid = 0;
    calls.forEach((c, i) => {
      const key = `${ownerOf(c)}:${tokenIdOf(c)}`;
      let expected = 0n;
      for (const w of writes(c, 1)) {
        const [, borrow, last] = w.value.map((v) => (Array.isArray(v) ? 0n : num(v)));
        const prev = accounts.get(`${w.owner}:${w.id}`);
        if (`${w.owner}:${w.id}` === key && prev && prev.last > 0n)
          expected = (prev.borrow * last) / prev.last - prev.borrow;
        accounts.set(`${w.owner}:${w.id}`, { borrow, last });
      }
      expect(events[i].interest, c.hash).to.equal(String(expected / P));
      if (expected >= P) paid++;
    });
    expect(paid, 'events that brought interest into a debt').to.be.greaterThan(0);
  });

  it('pool rows equal the market totals of the raw storage at every checkpoint, keeper-only accruals included', () => {
    expect(snapshots.length, 'checkpoints').to.be.greaterThan(1);
    for (const { level, pools } of snapshots) {
      const last = ops.filter((o) => levelOf.get(o)! <= level).at(-1)!;
      const markets = marketsOf(last.storage);
      for (const p of pools) {
        const m = markets.get(p.pool.split('_')[1])!;
        expect([p.total_debt, p.total_collateral, p.entity], `${p.pool} at ${level}`).to.deep.equal([
          String(m.borrows / P),
          String(owned(m) / P),
          'yupana',
        ]);
      }
    }
  });

  it("positions at head: debt, shares and borrow as the raw storage keeps them, pending interest by Yupana's formula at the head index, earned through the share value", async () => {
    // Interest as the API brings it to the market's latest rates (the table keeps it as of each position's latest
    // change).
    const positions = await withApiColumns(
      t,
      '/v1/lend/positions',
      await readTable(t, 'lend_position', POSITION_COLUMNS),
      ['interest_pending', 'interest_earned'],
    );
    const pools = snapshots.at(-1)!.pools;
    const markets = marketsOf(ops.at(-1)!.storage);
    const ledger = new Map<string, bigint>();
    const accounts = new Map<string, { borrow: bigint; last: bigint }>();
    const brought = new Map<string, bigint[]>();
    // Supply as the events and the share moves left it: deposits/withdrawals by event, yToken transfers and
    // seized collateral by the ledger change valued at the call's raw rates, never below 0.
    const balance = new Map<string, bigint>();
    const moved = new Map<string, { sent: bigint; received: bigint }>();
    const add = (k: string, n: bigint) =>
      balance.set(k, (balance.get(k) ?? 0n) + n > 0n ? (balance.get(k) ?? 0n) + n : 0n);
    for (const c of ops) {
      const i = calls.indexOf(c);
      if (i >= 0 && (c.entrypoint === 'mint' || c.entrypoint === 'redeem'))
        add(`${c.sender}:${tokenIdOf(c)}`, (c.entrypoint === 'mint' ? 1n : -1n) * BigInt(events[i].volume));
      if (c.entrypoint === 'transfer' || c.entrypoint === 'liquidate') {
        for (const w of writes(c, 0)) {
          const k = `${w.owner}:${w.id}`;
          const delta = num(w.value[0]) - (ledger.get(k) ?? 0n);
          const m = marketsOf(c.storage).get(w.id)!;
          const value = ((delta < 0n ? -delta : delta) * owned(m)) / m.supply / P;
          const sr = moved.get(k) ?? { sent: 0n, received: 0n };
          moved.set(k, delta < 0n ? { ...sr, sent: sr.sent + value } : { ...sr, received: sr.received + value });
          add(k, delta < 0n ? -value : value);
        }
      }
      for (const w of writes(c, 0)) ledger.set(`${w.owner}:${w.id}`, num(w.value[0]));
      for (const w of writes(c, 1)) {
        const [, borrow, last] = w.value.map((v) => (Array.isArray(v) ? 0n : num(v)));
        const prev = accounts.get(`${w.owner}:${w.id}`);
        if (prev && prev.last > 0n)
          brought.set(`${w.owner}:${w.id}`, [
            ...(brought.get(`${w.owner}:${w.id}`) ?? []),
            (prev.borrow * last) / prev.last - prev.borrow,
          ]);
        accounts.set(`${w.owner}:${w.id}`, { borrow, last });
      }
    }
    let pending = 0;
    for (const p of pools) {
      const id = p.pool.split('_')[1];
      const m = markets.get(id)!;
      const mine = positions.filter((x) => x.position.startsWith(`${p.pool}:`));
      expect([p.debt_token, p.collateral_token], p.pool).to.deep.equal([
        `${market.markets[Number(id)].address}_0`,
        `${market.markets[Number(id)].address}_0`,
      ]);
      expect([Number(p.num_deposits), Number(p.num_borrows)], p.pool).to.deep.equal([
        mine.filter((x) => x.balance !== '0').length,
        mine.filter((x) => x.debt !== '0').length,
      ]);
      for (const x of mine) {
        const got = (kind: string, col = 'volume') =>
          events
            .filter((e) => e.pool === p.pool && e.owner === x.owner && e.event_type === kind)
            .reduce((n, e) => n + BigInt(e[col] || '0'), 0n);
        const shares = ledger.get(`${x.owner}:${id}`) ?? 0n;
        const a = accounts.get(`${x.owner}:${id}`);
        const dep = got('deposit');
        const wd = got('withdraw');
        const net = balance.get(`${x.owner}:${id}`) ?? 0n;
        const { sent, received } = moved.get(`${x.owner}:${id}`) ?? { sent: 0n, received: 0n };
        // Yupana's own formulas: pending = borrow × borrowIndex / lastBorrowIndex − borrow; a share is worth liquidity
        // / totalSupply.
        const owes = a && a.last > 0n ? (a.borrow * m.index) / a.last - a.borrow : 0n;
        const earned = (shares * owned(m)) / m.supply / P + wd + sent - dep - received;
        // Every write of the account brought its borrow to the index: the interest it added, whichever market's call
        // wrote it.
        const interest = (brought.get(`${x.owner}:${id}`) ?? []).reduce((n, v) => n + v / P, 0n);
        expect(
          {
            debt: x.debt,
            shares: x.shares,
            borrow: x.borrow_scaled,
            index: x.borrow_index,
            pending: x.interest_pending,
            earned: x.interest_earned,
            paid: x.interest_paid,
          },
          x.position,
        ).to.deep.equal({
          debt: String((a?.borrow ?? 0n) / P),
          shares: ledger.has(`${x.owner}:${id}`) ? String(shares) : '',
          borrow: a ? String(a.borrow) : '',
          index: a ? String(a.last) : '',
          pending: a ? String(owes / P) : '',
          earned: ledger.has(`${x.owner}:${id}`) ? String(earned > 0n ? earned : 0n) : '',
          paid: String(interest),
        });
        if (owes >= P) pending++;
        expect(
          [x.deposited, x.withdrawn, x.borrowed, x.repaid, x.liquidated, x.sent, x.received, x.balance],
          x.position,
        ).to.deep.equal([dep, wd, got('borrow'), got('repay'), got('liquidate'), sent, received, net].map(String));
        expect(x.is_closed === 'true', x.position).to.equal(net === 0n && (a?.borrow ?? 0n) < P);
      }
    }
    expect(pending, 'positions with interest pending at head').to.be.greaterThan(0);
    expect(
      [...moved.values()].filter((m) => m.sent > 0n).length,
      'positions that sent supply (transfers, seized collateral)',
    ).to.be.greaterThan(1);
    expect(ops.filter((o) => o.entrypoint === 'transfer').length, 'yToken transfers').to.be.greaterThan(0);
  });

  it('a reorg leaves the lending tables as a clean run over the new branch has them', () =>
    expectReorgMatchesClean(t, chain, plugins, [
      ['lend_pool', POOL_COLUMNS],
      // The stake ids too: a position's row id, which a reorg gives back as a clean run does.
      ['lend_event', [...EVENT_COLUMNS, 'stake_id']],
      ['lend_position', [...POSITION_COLUMNS, 'stake_id']],
    ]));
});
