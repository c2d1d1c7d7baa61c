import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { yupanaMarket } from '../../plugins/defi-lending/adapters/yupana/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { leadingInts } from '../defi-dex/support/poolCalls';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const EVENT_COLUMNS = ['pool', 'height', 'event_type', 'owner', 'volume', 'debt', 'collateral', 'fee', 'sender', 'receiver', 'tx_hash'];
const POSITION_COLUMNS = ['position', 'owner', 'balance', 'debt', 'deposited', 'withdrawn', 'borrowed', 'repaid', 'liquidated', 'is_closed', 'open_height', 'close_height'];
const POOL_COLUMNS = ['pool', 'total_collateral', 'total_debt', 'num_deposits', 'num_borrows', 'debt_token', 'collateral_token', 'entity', 'update_height'];
const KIND: Record<string, string> = { mint: 'deposit', redeem: 'withdraw', borrow: 'borrow', repay: 'repay' };

describe('defi-lending: the Yupana-style market on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'lend-yupana-2', profile: 'tiny' });
  let t: TestInstance;
  let market: ReturnType<typeof yupanaMarket>;
  let calls: NormalizedOperation[];
  let events: CsvRow[];
  const plugins = () => discoverPlugins([BUILTIN_PLUGIN_DIR]);
  // The model's parameters: Pair tokenId amount (minReceived | deadline).
  const args = (c: NormalizedOperation) => leadingInts(c.parameters, 2);

  before(async () => {
    t = await startTestInstance({ plugins: plugins() });
    chain.bakeTo(160);
    await indexSandbox(t, chain);
    market = yupanaMarket(chain.contracts);
    calls = canonical(chain).flatMap((b) => b.operations).filter((o) => o.receiver === market.address && o.hash !== '' && o.isSuccess && o.entrypoint !== undefined && o.entrypoint in KIND);
    events = await readTable(t, 'lend_event', EVENT_COLUMNS);
  });
  after(() => t?.close());

  it('records one event per lending call of the model, on the market of its token id, with the amount it moved', () => {
    for (const e of Object.keys(KIND)) expect(calls.some((c) => c.entrypoint === e), `${e} calls in the chain`).to.equal(true);
    expect(events.map((e) => [e.tx_hash, e.event_type, e.pool])).to.deep.equal(calls.map((c) => [c.hash, KIND[c.entrypoint!], `${market.address}_${args(c)[0]}`]));
    calls.forEach((c, i) => {
      const e = events[i];
      expect([e.volume, e.owner, e.sender, e.receiver, e.fee], c.hash).to.deep.equal([String(args(c)[1]), c.sender, c.sender, c.sender, '0']);
    });
  });

  it('each event carries the market totals after it: running sums of the model\'s ledger and borrow moves', () => {
    const supplied = new Map<string, bigint>();
    const owed = new Map<string, bigint>();
    calls.forEach((c, i) => {
      const [id, amount] = args(c);
      const k = String(id);
      const sign = c.entrypoint === 'mint' || c.entrypoint === 'borrow' ? 1n : -1n;
      const book = c.entrypoint === 'mint' || c.entrypoint === 'redeem' ? supplied : owed;
      book.set(k, (book.get(k) ?? 0n) + sign * amount);
      expect([events[i].collateral, events[i].debt], c.hash).to.deep.equal([String(supplied.get(k) ?? 0n), String(owed.get(k) ?? 0n)]);
    });
  });

  it('market rows equal the model storage (sum of its ledger and borrows big maps); positions hold each owner\'s entries', async () => {
    const pools = await readTable(t, 'lend_pool', POOL_COLUMNS);
    const positions = await readTable(t, 'lend_position', POSITION_COLUMNS);
    const ids = [...new Set(calls.map((c) => Number(args(c)[0])))].sort();
    expect(pools.map((p) => p.pool).sort()).to.deep.equal(ids.map((id) => `${market.address}_${id}`).sort());
    const owners = [...new Set(calls.map((c) => c.sender!))];
    for (const p of pools) {
      const id = Number(p.pool.split('_')[1]);
      const sum = (b: typeof market.supplied) => owners.reduce((n, o) => n + b.get(o, id), 0n);
      const mine = positions.filter((x) => x.position.startsWith(`${p.pool}:`));
      expect([p.total_collateral, p.total_debt, p.debt_token, p.collateral_token, p.entity], p.pool).to.deep.equal([String(sum(market.supplied)), String(sum(market.borrowed)), `${market.markets[id].address}_0`, `${market.markets[id].address}_0`, 'yupana']);
      expect([Number(p.num_deposits), Number(p.num_borrows)], p.pool).to.deep.equal([mine.filter((x) => x.balance !== '0').length, mine.filter((x) => x.debt !== '0').length]);
      for (const x of mine) {
        const got = (kind: string) => events.filter((e) => e.pool === p.pool && e.owner === x.owner && e.event_type === kind).reduce((n, e) => n + BigInt(e.volume), 0n);
        const [balance, debt] = [market.supplied.get(x.owner, id), market.borrowed.get(x.owner, id)];
        expect([x.balance, x.debt, x.deposited, x.withdrawn, x.borrowed, x.repaid, x.liquidated], x.position).to.deep.equal([balance, debt, got('deposit'), got('withdraw'), got('borrow'), got('repay'), 0n].map(String));
        expect(x.is_closed === 'true', x.position).to.equal(balance === 0n && debt === 0n);
      }
    }
    expect(positions.length, 'positions recorded').to.be.greaterThan(0);
  });

  it('a reorg leaves the lending tables as a clean run over the new branch has them', async () => {
    chain.reorg(3);
    chain.bake(4);
    await indexSandbox(t, chain);
    const clean = await startTestInstance({ plugins: plugins() });
    try {
      await indexSandbox(clean, chain);
      const strip = (rows: CsvRow[]) => rows.map(({ row_id: _r, ...rest }) => rest);
      for (const [table, cols] of [['lend_pool', POOL_COLUMNS], ['lend_event', EVENT_COLUMNS], ['lend_position', POSITION_COLUMNS]] as const) {
        const rows = strip(await readTable(t, table, cols));
        expect(rows.length, table).to.be.greaterThan(0);
        expect(rows, table).to.deep.equal(strip(await readTable(clean, table, cols)));
      }
    } finally {
      await clean.close();
    }
  });
});
