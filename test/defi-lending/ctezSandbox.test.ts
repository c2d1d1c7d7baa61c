import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { PROFILES } from '../../framework/sandbox/profiles';
import { ctezOvens } from '../../plugins/defi-lending/adapters/ctez/sim/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { json, type Json } from '../defi-dex/support/DexOracle';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { expectReorgMatchesClean } from '../support/ReorgCheck';
import { withApiColumns } from '../support/apiColumns';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const EVENT_COLUMNS = [
  'pool',
  'height',
  'event_type',
  'owner',
  'stake_id',
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
  'stake_id',
  'balance',
  'debt',
  'deposited',
  'withdrawn',
  'borrowed',
  'repaid',
  'liquidated',
  'sent',
  'received',
  'interest_paid',
  'interest_pending',
  'borrow_scaled',
  'borrow_index',
  'is_closed',
  'update_height',
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
/** ctez 2's oven entrypoints of the main contract. */
const OVEN_CALLS = ['create_oven', 'register_oven_deposit', 'withdraw_from_oven', 'mint_or_burn', 'liquidate_oven'];

type Node = { prim?: string; args?: Node[]; int?: string; string?: string } | Node[];
/** A Micheline value's leaves in order, right-comb pairs flattened (the test's own reading of the raw storage). */
const leaves = (v: Node): Node[] => (!Array.isArray(v) && v.prim === 'Pair' ? v.args!.flatMap(leaves) : [v]);
const num = (v: Node): bigint => BigInt((v as { int: string }).int);
const text = (v: Node): string => (v as { string: string }).string;

/**
 * An oven entry of the raw `ovens` big map: `Pair id owner` → `Pair tez_balance ctez_outstanding address fee_index`.
 */
interface RawOven {
  tez: bigint;
  ctez: bigint;
  address: string;
  fee: bigint;
}

/**
 * The raw storage `Pair ovens last_update sell_ctez sell_tez context …`, each half dex `Pair liquidity_owners
 * total_liquidity_shares self_reserves proceeds_debts proceeds_reserves subsidy_debts subsidy_reserves fee_index`
 * (trilitech/ctez build/ctez_2.tz): the ovens big map id and the fee index ovens are brought to (ctez 2: the product
 * of the two half dexes').
 */
function storageOf(storage: unknown): { ovens: bigint; index: bigint } {
  const l = leaves(storage as Node);
  return { ovens: num(l[0]), index: num(l[9]) * num(l[17]) };
}

describe('defi-lending: ctez ovens on the sandbox chain', function () {
  this.timeout(300_000);
  // The lending simulators with only the ctez traffic, denser than in the default mix: oven calls of every kind within
  // 200 blocks.
  const chain = new SandboxChain({
    seed: 'lend-ctez',
    profile: { ...PROFILES.tiny, mix: { ...PROFILES.tiny.mix, defi: 30 } },
    traffic: ['defi-lending:ctez'],
  });
  let t: TestInstance;
  let main: ReturnType<typeof ctezOvens>;
  /** Every applied oven call to the main contract, in chain order. */
  let calls: NormalizedOperation[];
  let all: NormalizedOperation[];
  const levelOf = new Map<NormalizedOperation, number>();
  let events: CsvRow[];
  /** The raw ovens after each call (replayed from the big map writes) and the fee index after it. */
  const states: { ovens: Map<string, RawOven>; index: bigint }[] = [];
  const prior: (RawOven | undefined)[] = [];
  const snapshots: { level: number; pools: CsvRow[] }[] = [];
  const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]);
  const pool = () => `${main.address}_0`;

  /** The oven a call is about: (id, owner) from the parameter (handle) or the caller. */
  const handleOf = (c: NormalizedOperation): string => {
    const p = leaves(c.parameters as Node);
    return c.entrypoint === 'register_oven_deposit' || c.entrypoint === 'liquidate_oven'
      ? `${text(p[1])}:${num(p[0])}`
      : `${c.sender}:${num(p[0])}`;
  };
  const later = (c: NormalizedOperation) =>
    all.filter((o) => o.hash === c.hash && o.opC === c.opC && o.opI > c.opI && o.isSuccess);

  before(async () => {
    t = await startTestInstance({ plugins: plugins() });
    chain.bakeTo(140);
    main = ctezOvens(chain.contracts);
    const blocks = canonical(chain);
    for (const b of blocks) for (const o of b.operations) levelOf.set(o, b.level);
    all = blocks.flatMap((b) => b.operations);
    calls = all.filter((o) => o.receiver === main.address && o.isSuccess && OVEN_CALLS.includes(o.entrypoint ?? ''));
    const ovens = new Map<string, RawOven>();
    for (const c of calls) {
      const s = storageOf(c.storage);
      prior.push(ovens.get(handleOf(c)));
      for (const d of c.bigMapDiffs) {
        if (d.action !== 'update' || d.bigMapId === undefined || BigInt(d.bigMapId) !== s.ovens) continue;
        const [id, owner] = leaves(d.key as Node);
        const [tez, ctez, address, fee] = leaves(d.value as Node);
        ovens.set(`${text(owner)}:${num(id)}`, {
          tez: num(tez),
          ctez: num(ctez),
          address: text(address),
          fee: num(fee),
        });
      }
      states.push({ ovens: new Map(ovens), index: s.index });
    }
    const levels = [...new Set(calls.map((c) => levelOf.get(c)!))];
    const checkpoints = [...levels.filter((_, i) => i % Math.ceil(levels.length / 4) === 0), chain.headLevel].sort(
      (a, b) => a - b,
    );
    for (const level of checkpoints) {
      await indexSandbox(t, chain, { toLevel: level });
      snapshots.push({ level, pools: await readTable(t, 'lend_pool', POOL_COLUMNS) });
    }
    events = (await readTable(t, 'lend_event', EVENT_COLUMNS)).filter((e) => e.pool === pool());
  });
  after(() => t?.close());

  const totals = (ovens: Map<string, RawOven>) =>
    [...ovens.values()].reduce((s, o) => ({ tez: s.tez + o.tez, ctez: s.ctez + o.ctez }), { tez: 0n, ctez: 0n });

  it('records one event per oven call with the amount that moved: tez into the oven, tez the oven paid out, ctez minted or burned', () => {
    const kinds = calls.map((c) => c.entrypoint!);
    for (const e of OVEN_CALLS) expect(kinds.includes(e), `${e} calls in the chain`).to.equal(true);
    expect(
      calls.some((c) => c.entrypoint === 'mint_or_burn' && num(leaves(c.parameters as Node)[1]) < 0n),
      'burns',
    ).to.equal(true);
    expect(events.map((e) => [e.tx_hash, e.stake_id])).to.deep.equal(
      calls.map((c) => [c.hash, handleOf(c).split(':')[1]]),
    );
    calls.forEach((c, i) => {
      const e = events[i];
      const [owner] = handleOf(c).split(':');
      const rest = later(c);
      // The ctez token's mintOrBurn (Pair quantity target) and the oven's plain tez transfers.
      const minted = rest.filter((o) => o.entrypoint === 'mintOrBurn').map((o) => num(leaves(o.parameters as Node)[0]));
      const paid = rest
        .filter((o) => o.entrypoint === undefined && o.sender === states[i].ovens.get(handleOf(c))!.address)
        .reduce((n, o) => n + o.volume, 0n);
      let expected: [string, bigint, string];
      switch (c.entrypoint) {
        case 'create_oven':
          expected = ['deposit', c.volume, owner];
          break;
        case 'register_oven_deposit': {
          // The user's payment to the oven that called in.
          const pay = all.find(
            (o) => o.hash === c.hash && o.opC === c.opC && o.receiver === c.sender && !o.isInternal,
          )!;
          expected = ['deposit', pay.volume, owner];
          break;
        }
        case 'withdraw_from_oven':
          expected = ['withdraw', paid, text(leaves(c.parameters as Node)[2])];
          break;
        case 'mint_or_burn':
          expected = [minted[0] > 0n ? 'borrow' : 'repay', minted[0] > 0n ? minted[0] : -minted[0], owner];
          break;
        default:
          expected = ['liquidate', -minted[0], text(leaves(c.parameters as Node)[3])];
      }
      expect([e.event_type, BigInt(e.volume), e.receiver, e.owner, e.fee], c.hash).to.deep.equal([
        ...expected,
        owner,
        '0',
      ]);
    });
  });

  it('each event carries the totals of the raw ovens after the call and the fee the call brought into the oven (outstanding × index / oven index − outstanding)', () => {
    let charged = 0;
    calls.forEach((c, i) => {
      const { tez, ctez } = totals(states[i].ovens);
      const o = prior[i];
      const fee = o && o.fee > 0n ? (o.ctez * states[i].index) / o.fee - o.ctez : 0n;
      if (fee > 0n) charged++;
      expect([events[i].collateral, events[i].debt, events[i].interest], c.hash).to.deep.equal([
        String(tez),
        String(ctez),
        String(fee),
      ]);
    });
    expect(charged, 'calls that capitalized a fee').to.be.greaterThan(0);
  });

  it('pool rows equal the sums of the raw ovens at every checkpoint', () => {
    expect(snapshots.length, 'checkpoints').to.be.greaterThan(2);
    for (const { level, pools } of snapshots) {
      const i = calls.filter((c) => levelOf.get(c)! <= level).length - 1;
      const row = pools.find((p) => p.pool === pool());
      if (i < 0) {
        expect(row, `no market before its first call (${level})`).to.equal(undefined);
        continue;
      }
      const { tez, ctez } = totals(states[i].ovens);
      const open = [...states[i].ovens.values()];
      expect(
        [
          row!.total_collateral,
          row!.total_debt,
          row!.entity,
          row!.debt_token,
          row!.collateral_token,
          row!.num_deposits,
          row!.num_borrows,
        ],
        `${level}`,
      ).to.deep.equal([
        String(tez),
        String(ctez),
        'ctez',
        `${main.ctez.address}_0`,
        'tez',
        String(open.filter((o) => o.tez > 0n).length),
        String(open.filter((o) => o.ctez > 0n).length),
      ]);
    }
  });

  it('positions at head are the raw ovens: tez balance, outstanding ctez and its fee index, the pending fee at the head index, sums of the calls', async () => {
    // Interest as the API brings it to the market's latest rates (the table keeps it as of each position's latest
    // change).
    const positions = await withApiColumns(
      t,
      '/v1/lend/positions',
      await readTable(t, 'lend_position', POSITION_COLUMNS),
      ['interest_pending', 'interest_earned'],
    );
    const mine = positions.filter((p) => p.position.startsWith(`${pool()}:`));
    const head = states.at(-1)!;
    expect(mine.map((p) => `${p.owner}:${p.stake_id}`).sort()).to.deep.equal([...head.ovens.keys()].sort());
    let pending = 0;
    for (const p of mine) {
      const k = `${p.owner}:${p.stake_id}`;
      const o = head.ovens.get(k)!;
      const sum = (type: string, col = 'volume') =>
        events
          .filter((e) => `${e.owner}:${e.stake_id}` === k && e.event_type === type)
          .reduce((n, e) => n + BigInt(e[col] || '0'), 0n);
      // Tez a liquidation took: what the oven paid out on liquidate_oven.
      const seized = calls.reduce(
        (n, c) =>
          c.entrypoint === 'liquidate_oven' && handleOf(c) === k
            ? n +
              later(c)
                .filter((x) => x.sender === o.address && x.entrypoint === undefined)
                .reduce((m, x) => m + x.volume, 0n)
            : n,
        0n,
      );
      const owes = (o.ctez * head.index) / o.fee - o.ctez;
      if (owes > 0n) pending++;
      const fees = calls.reduce(
        (n, c, i) =>
          handleOf(c) === k && prior[i] ? n + (prior[i]!.ctez * states[i].index) / prior[i]!.fee - prior[i]!.ctez : n,
        0n,
      );
      expect(
        {
          balance: p.balance,
          debt: p.debt,
          scaled: p.borrow_scaled,
          index: p.borrow_index,
          pending: p.interest_pending,
          paid: p.interest_paid,
          sent: p.sent,
          closed: p.is_closed,
        },
        p.position,
      ).to.deep.equal({
        balance: String(o.tez),
        debt: String(o.ctez),
        scaled: String(o.ctez * 10n ** 18n),
        index: String(o.fee),
        pending: String(owes),
        paid: String(fees),
        sent: String(seized),
        closed: String(o.tez === 0n && o.ctez === 0n),
      });
      expect([p.deposited, p.withdrawn, p.borrowed, p.repaid, p.liquidated], p.position).to.deep.equal(
        [sum('deposit'), sum('withdraw'), sum('borrow'), sum('repay'), sum('liquidate')].map(String),
      );
      expect(
        BigInt(p.deposited) - BigInt(p.withdrawn) - seized,
        `${p.position}: collateral moved = the raw tez balance`,
      ).to.equal(o.tez);
      // The market's accruals do not rewrite every oven: a row last changed at its own oven's latest event.
      const own = events.filter((e) => `${e.owner}:${e.stake_id}` === k).map((e) => Number(e.height));
      expect(p.update_height, `${p.position} written`).to.equal(String(Math.max(...own)));
    }
    expect(pending, 'ovens with a fee pending at head').to.be.greaterThan(0);
  });

  it("address= matches the signer, sender or receiver of events; owner= their position's owner", async () => {
    const events = await readTable(t, 'lend_event', ['pool', 'owner', 'signer', 'sender', 'receiver']);
    const took = (a: string) => events.filter((e) => [e.signer, e.sender, e.receiver].includes(a));
    // Owners of events they neither signed, sent nor received (an oven liquidated or paid by another)
    // tell the two filters apart.
    const apart = [...new Set(events.filter((e) => !took(e.owner).includes(e)).map((e) => e.owner))];
    expect(apart.length, 'owners apart from the parties of an event').to.be.greaterThan(0);
    for (const a of apart.slice(0, 3)) {
      const served = async (path: string) => ids(await json(t, `${path}&limit=10000`));
      const owned = events.filter((e) => e.owner === a);
      expect(await served(`/v1/lend/events?address=${a}`), a).to.deep.equal(rowIds(took(a)));
      expect(await served(`/v1/lend/events?owner=${a}`), a).to.deep.equal(rowIds(owned));
      const market = owned[0].pool;
      const inPool = (rows: CsvRow[]) => rowIds(rows.filter((e) => e.pool === market));
      expect(await served(`/v1/lend/${market}/events?address=${a}`), a).to.deep.equal(inPool(took(a)));
      expect(await served(`/v1/lend/${market}/events?owner=${a}`), a).to.deep.equal(inPool(owned));
    }
  });

  const ids = (list: Json[]) => list.map((x) => String(x.id));
  const rowIds = (rows: CsvRow[]) => rows.map((r) => r.row_id);

  // tzgo's token address needs a KT1: tez is its ZeroToken (zero contract hash, id 0), as the pool's
  // tez object (contract '').
  it("serves tez collateral as tzgo's zero token address in events and positions", async () => {
    const zero = 'KT18amZmM5W7qDWVt2pH6uj7sCEd3kbzLrHT_0';
    const evs = (await json(t, `/v1/lend/${pool()}/events?limit=10000`)) as Json[];
    const ps = (await json(t, `/v1/lend/${pool()}/positions?with_closed=1&limit=10000`)) as Json[];
    expect(evs.length + ps.length).to.be.greaterThan(0);
    const ctez = `${main.ctez.address}_0`;
    const served = [...evs, ...ps].map((r) => [r.collateral_token, r.debt_token]);
    expect(served).to.deep.equal(served.map(() => [zero, ctez]));
    const market = (await json(t, `/v1/lend/${pool()}`)) as Json;
    expect([market.collateral_token.contract, market.collateral_token.token_kind]).to.deep.equal(['', 'tez']);
  });

  it('a reorg leaves the lending tables as a clean run over the new branch has them', () =>
    expectReorgMatchesClean(t, chain, plugins, [
      ['lend_pool', POOL_COLUMNS],
      ['lend_event', EVENT_COLUMNS],
      ['lend_position', POSITION_COLUMNS],
    ]));
});
