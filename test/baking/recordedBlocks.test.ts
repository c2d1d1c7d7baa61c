import { expect } from 'chai';
import type { Json } from '../chain/support/Json';
import { mutez, readTable } from '../core-chain/support/tableReader';
import { indexWithNode } from '../governance/support/governanceInstance';
import { readFixtureJson } from '../support/fixtures';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { OP_COUNTERS, oracleOpCounts } from './support/opCountOracle';
import { oracleIncome } from './support/receiptOracle';

/** One recorded mainnet block per era: Emmy (pre-Ithaca), Tenderbake and Paris+ (staking). */
const FILES = [
  ['pre-Ithaca', 'tezos-rpc/blocks/legacy-pre-ithaca/mainnet/mainnet-1064978.json'],
  ['Tenderbake', 'tezos-rpc/blocks/mainnet/mainnet-2490368.json'],
  ['Paris+', 'tezos-rpc/blocks/mainnet/mainnet-11610082.json'],
] as const;
const MONEY = ['baking_income', 'endorsing_income', 'fees_income', 'total_deposits'];
/**
 * A real Ithaca block (testnet, trimmed by its source to the operations under test) with a set_deposits_limit, indexed
 * first.
 */
const LIMIT_BLOCK = 'tezos-rpc/blocks/trimmed/ithacanet-135596.json';

describe(`baking: recorded mainnet blocks of three eras, without a node (${BACKEND})`, function () {
  this.timeout(300_000);
  const blocks = FILES.map(([, f]) => readFixtureJson<Json>(...f.split('/')));
  const limitBlock = readFixtureJson<Json>(...LIMIT_BLOCK.split('/'));
  let t: TestInstance;

  before(async function () {
    t = await startBakingInstance();
    await indexWithNode(t, [limitBlock, ...blocks]);
  });
  after(async () => t?.close());

  it('bakes, attestations and rewards/deposits per baker equal the receipts; rights stay unknown', async () => {
    const income = await readTable(t, 'income', [
      'cycle',
      'address',
      ...MONEY,
      'n_blocks_baked',
      'n_blocks_endorsed',
      'n_baking_rights',
      'expected_income',
    ]);
    const oracle = oracleIncome(blocks);
    FILES.forEach(([era], i) => {
      const b = blocks[i];
      const cycle = String(b.metadata.level_info?.cycle ?? b.metadata.level.cycle);
      const rows = income.filter((r) => r.cycle === cycle);
      const baker = rows.find((r) => r.address === b.metadata.baker);
      expect(baker?.n_blocks_baked, `${era} baker`).to.equal('1');
      const attesters = new Set<string>();
      for (const op of b.operations[0])
        for (const c of op.contents)
          for (const m of c.kind.endsWith('aggregate') ? (c.metadata?.committee ?? []) : [c.metadata ?? {}])
            if (m.delegate) attesters.add(m.delegate);
      expect(attesters.size, `${era} has attestations`).to.be.greaterThan(0);
      for (const r of rows) {
        expect(r.n_blocks_endorsed, `${era} ${r.address} attested`).to.equal(attesters.has(r.address) ? '1' : '0');
        const want = oracle.get(`${cycle}_${r.address}`) ?? {};
        for (const c of MONEY) expect(mutez(r[c]), `${era} ${r.address} ${c}`).to.equal(want[c] ?? 0n);
        expect(r.n_baking_rights, 'no node, no rights').to.equal('');
        expect(r.expected_income).to.equal('');
      }
      expect(
        rows.some((r) => mutez(r.baking_income) > 0n),
        `${era} baking reward`,
      ).to.equal(true);
    });
  });

  it('operation counters per baker equal a count over the raw operations of every era', async () => {
    const income = await readTable(t, 'income', ['cycle', 'address', 'n_baker_ops', ...OP_COUNTERS]);
    const oracle = oracleOpCounts([limitBlock, ...blocks]);
    expect(
      [...oracle.values()].some((v) => v.n_set_limits === 1),
      'a deposits limit to count',
    ).to.equal(true);
    for (const r of income) {
      const want = oracle.get(`${r.cycle}_${r.address}`) ?? {};
      for (const c of ['n_baker_ops', ...OP_COUNTERS])
        expect(Number(r[c]), `${r.cycle} ${r.address} ${c}`).to.equal(want[c] ?? 0);
    }
    for (const key of oracle.keys())
      expect(
        income.some((r) => `${r.cycle}_${r.address}` === key),
        key,
      ).to.equal(true);
  });

  it('attesting rewards lost at a cycle end are a seed loss when the nonce was not revealed, else an attesting loss', async () => {
    const b = blocks[1];
    const cycle = String(b.metadata.level_info.cycle);
    const income = (
      await readTable(t, 'income', [
        'cycle',
        'address',
        'seed_loss',
        'lost_seed_rewards',
        'endorsing_loss',
        'total_loss',
      ])
    ).filter((r) => r.cycle === cycle);
    const want = new Map<string, { seed: bigint; attesting: bigint }>();
    for (const u of b.metadata.balance_updates)
      if (u.category === 'lost endorsing rewards') {
        const w = want.get(u.delegate) ?? want.set(u.delegate, { seed: 0n, attesting: 0n }).get(u.delegate)!;
        if (u.participation === true && u.revelation === false) w.seed += BigInt(u.change);
        else w.attesting += BigInt(u.change);
      }
    expect([...want.values()].some((w) => w.seed > 0n) && [...want.values()].some((w) => w.attesting > 0n)).to.equal(
      true,
    );
    for (const [baker, w] of want) {
      const r = income.find((x) => x.address === baker);
      expect(mutez(r?.seed_loss ?? '0'), `${baker} seed_loss`).to.equal(w.seed);
      expect(mutez(r?.lost_seed_rewards ?? '0'), `${baker} lost_seed_rewards`).to.equal(w.seed);
      expect(mutez(r?.endorsing_loss ?? '0'), `${baker} endorsing_loss`).to.equal(w.attesting);
    }
  });
});
