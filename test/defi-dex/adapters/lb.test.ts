import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';

const CPMM = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const SIRIUS = 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo';
const POOL = `${CPMM}_0`;
const EVENT_COLUMNS = [
  'height',
  'event_type',
  'volume_a',
  'volume_b',
  'volume_lp',
  'supply_a',
  'supply_b',
  'supply_lp',
  'tx_hash',
];

/** LB's storage as the node prints it (a flat sequence, optimized form): [tokenPool, xtzPool, lqtTotal, …]. */
function reserves(storage: unknown): [bigint, bigint, bigint] {
  const s = storage as Array<{ int?: string }> | { prim: string; args: Array<{ int?: string }> };
  const items = Array.isArray(s) ? s : s.args;
  return [BigInt(items[0].int!), BigInt(items[1].int!), BigInt(items[2].int!)];
}

describe('defi-dex: Liquidity Baking on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-lb', profile: 'tiny', traffic: ['defi-dex:lb'] });
  let t: TestInstance;
  let events: CsvRow[];
  let calls: NormalizedOperation[];
  /** The indexer's questions to dex_event about an account while it indexed the chain. */
  const eventReads: string[] = [];
  const readsEvents = (q: { sql: string }) =>
    /^select .* from "[^"]+"\."dex_event" where .*"sender"/.test(q.sql) && eventReads.push(q.sql);
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(60);
    t.app.db.writer.on('query', readsEvents);
    await indexSandbox(t, chain);
    t.app.db.writer.off('query', readsEvents);
    events = await readTable(t, 'dex_event', EVENT_COLUMNS, `pool=${POOL}`);
    calls = canonical(chain)
      .flatMap((b) => b.operations)
      .filter(
        (o) =>
          o.receiver === CPMM &&
          o.hash !== '' &&
          o.isSuccess &&
          ['xtzToToken', 'tokenToXtz', 'addLiquidity', 'removeLiquidity'].includes(o.entrypoint ?? ''),
      );
  });
  after(() => t?.close());

  it('records one event per CPMM call with the storage after it as supplies', async () => {
    expect(calls.length, 'LB calls in the sandbox chain').to.be.greaterThan(3);
    const recorded = events.filter((e) => e.event_type !== 'create');
    expect(recorded.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    calls.forEach((c, i) => {
      const [tokenPool, xtzPool, lqt] = reserves(c.storage);
      const e = recorded[i];
      expect([e.supply_a, e.supply_b, e.supply_lp], c.hash).to.deep.equal([tokenPool, xtzPool, lqt].map(String));
      const kind = { xtzToToken: 'trade', tokenToXtz: 'trade', addLiquidity: 'deposit', removeLiquidity: 'withdraw' }[
        c.entrypoint as string
      ];
      expect(e.event_type, c.hash).to.equal(kind);
    });
  });

  it('the pool row holds the sandbox CPMM reserves at head, subsidy included', async () => {
    const model = (
      chain.contracts.require(CPMM) as unknown as { state: { tokenPool: bigint; otherPool: bigint; lqtTotal: bigint } }
    ).state;
    const [pool] = await readTable(
      t,
      'dex_pool',
      ['supply_a', 'supply_b', 'supply_lp', 'num_trades', 'token_a', 'token_b', 'token_lp', 'entity'],
      `pool=${POOL}`,
    );
    expect([pool.supply_a, pool.supply_b, pool.supply_lp]).to.deep.equal(
      [model.tokenPool, model.otherPool, model.lqtTotal].map(String),
    );
    expect([pool.token_b, pool.token_lp, pool.entity]).to.deep.equal(['tez', `${SIRIUS}_0`, 'sirius']);
    expect(Number(pool.num_trades)).to.equal(
      calls.filter((c) => c.entrypoint === 'xtzToToken' || c.entrypoint === 'tokenToXtz').length,
    );
  });

  it('trade amounts follow the pool reserves before and after (tez burned, tokens moved)', async () => {
    const trades = await readTable(
      t,
      'dex_trade',
      ['side', 'base_volume', 'quote_volume', 'burn', 'tx_hash'],
      `pool=${POOL}`,
    );
    let before: [bigint, bigint, bigint] | undefined;
    let checked = 0;
    const byHash = new Map(trades.map((tr) => [tr.tx_hash, tr]));
    for (const b of canonical(chain)) {
      for (const o of b.operations) {
        if (o.receiver !== CPMM || !o.isSuccess || !o.storage) continue;
        const after = reserves(o.storage);
        const tr = byHash.get(o.hash);
        if (before && tr && o.hash !== '') {
          if (o.entrypoint === 'xtzToToken') {
            // Tokens out = token reserve drop; the tez that stayed in the pool = tez in − burn.
            expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume) - BigInt(tr.burn)], o.hash).to.deep.equal([
              'buy',
              before[0] - after[0],
              after[1] - before[1],
            ]);
            checked++;
          } else if (o.entrypoint === 'tokenToXtz') {
            expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume) + BigInt(tr.burn)], o.hash).to.deep.equal([
              'sell',
              after[0] - before[0],
              before[1] - after[1],
            ]);
            checked++;
          }
        }
        before = after;
      }
    }
    expect(checked, 'trades compared').to.be.greaterThan(0);
  });

  it('positions hold the Sirius minted and burned for each owner by the indexed calls', async () => {
    // Oracle from the raw chain: Sirius's origination (the migration's implicit result) writes its first
    // holder into the ledger (the null address, 100 LQT); then the internal calls (Pair quantity target).
    const held = new Map<string, bigint>();
    for (const o of canonical(chain).flatMap((b) => b.operations)) {
      if (o.receiver === SIRIUS && o.type === 'migration') {
        for (const d of o.bigMapDiffs) {
          if (d.action !== 'update') continue;
          const [key, value] = [d.key as { string?: string }, d.value as { int?: string }];
          if (key.string && value.int) held.set(key.string, BigInt(value.int));
        }
      }
      if (o.receiver !== SIRIUS || o.entrypoint !== 'mintOrBurn' || !o.isSuccess) continue;
      const [quantity, target] = (o.parameters as { args: Array<{ int?: string; string?: string }> }).args;
      held.set(target.string!, (held.get(target.string!) ?? 0n) + BigInt(quantity.int!));
    }
    const positions = await readTable(t, 'dex_position', ['owner', 'shares', 'is_closed'], `pool=${POOL}`);
    expect(positions.length, 'LB positions').to.equal(held.size);
    expect(held.size).to.be.greaterThan(0);
    for (const p of positions) {
      expect(p.shares, p.owner).to.equal(String(held.get(p.owner)));
      expect(held.get(p.owner)! >= 0n, p.owner).to.equal(true);
      // Closed when no share is left.
      expect(p.is_closed === 'true', p.owner).to.equal(held.get(p.owner)! === 0n);
    }
  });

  it('users: accounts that traded or provided liquidity; a run asks the events nothing about pools it created', async () => {
    const users = async () =>
      new Set(
        (await readTable(t, 'dex_event', ['event_type', 'sender'], `pool=${POOL}`))
          .filter((e) => ['trade', 'deposit', 'withdraw'].includes(e.event_type))
          .map((e) => e.sender),
      );
    const counted = async () =>
      Number((await readTable(t, 'dex_pool', ['num_total_users'], `pool=${POOL}`))[0].num_total_users);
    expect((await users()).size).to.be.greaterThan(1);
    expect(await counted()).to.equal((await users()).size);
    expect(eventReads, 'first-use questions').to.deep.equal([]);
    // A run that did not see the pool created (a restart: its caches empty) asks the events and agrees.
    t.app.dispatcher.state.drop();
    chain.bake(30);
    t.app.db.writer.on('query', readsEvents);
    await indexSandbox(t, chain);
    t.app.db.writer.off('query', readsEvents);
    expect(eventReads.length, 'first-use questions after the restart').to.be.greaterThan(0);
    expect(await counted()).to.equal((await users()).size);
  });

  it('a reorg leaves the DEX tables as a clean run over the new branch has them', async () => {
    // The indexer finds the fork by the block hashes and rolls back generically.
    chain.reorg(3);
    chain.bake(4);
    await indexSandbox(t, chain);
    const clean = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    try {
      await indexSandbox(clean, chain);
      for (const [table, cols] of [
        [
          'dex_pool',
          ['pool', 'supply_a', 'supply_b', 'supply_lp', 'num_trades', 'num_lps', 'num_total_lps', 'num_total_users'],
        ],
        ['dex_event', EVENT_COLUMNS],
        ['dex_position', ['position', 'shares', 'shares_minted', 'shares_burned', 'is_closed']],
      ] as const) {
        const strip = (rows: CsvRow[]) => rows.map(({ row_id: _r, ...rest }) => rest);
        expect(strip(await readTable(t, table, cols)), table).to.deep.equal(strip(await readTable(clean, table, cols)));
      }
    } finally {
      await clean.close();
    }
  });
});
