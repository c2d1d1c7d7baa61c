import { expect } from 'chai';
import type { Json } from '../chain/support/Json';
import { mutez, readTable } from '../core-chain/support/tableReader';
import { indexWithNode } from '../governance/support/governanceInstance';
import { readFixtureJson } from '../support/fixtures';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { oracleIncome } from './support/receiptOracle';

/** One recorded mainnet block per era: Emmy (pre-Ithaca), Tenderbake and Paris+ (staking). */
const FILES = [
  ['pre-Ithaca', 'tezos-rpc/blocks/legacy-pre-ithaca/mainnet/mainnet-1064978.json'],
  ['Tenderbake', 'tezos-rpc/blocks/mainnet/mainnet-2490368.json'],
  ['Paris+', 'tezos-rpc/blocks/mainnet/mainnet-11610082.json'],
] as const;
const MONEY = ['baking_income', 'endorsing_income', 'fees_income', 'total_deposits'];

describe(`baking: recorded mainnet blocks of three eras, without a node (${BACKEND})`, function () {
  this.timeout(300_000);
  const blocks = FILES.map(([, f]) => readFixtureJson<Json>(...f.split('/')));
  let t: TestInstance;

  before(async function () {
    t = await startBakingInstance();
    await indexWithNode(t, blocks);
  });
  after(async () => t?.close());

  it('bakes, attestations and rewards/deposits per baker equal the receipts; rights stay unknown', async () => {
    const income = await readTable(t, 'income', ['cycle', 'address', ...MONEY, 'n_blocks_baked', 'n_blocks_endorsed', 'n_baking_rights', 'expected_income']);
    const oracle = oracleIncome(blocks);
    FILES.forEach(([era], i) => {
      const b = blocks[i];
      const cycle = String(b.metadata.level_info?.cycle ?? b.metadata.level.cycle);
      const rows = income.filter((r) => r.cycle === cycle);
      const baker = rows.find((r) => r.address === b.metadata.baker);
      expect(baker?.n_blocks_baked, `${era} baker`).to.equal('1');
      const attesters = new Set<string>();
      for (const op of b.operations[0]) for (const c of op.contents) for (const m of c.kind.endsWith('aggregate') ? (c.metadata?.committee ?? []) : [c.metadata ?? {}]) if (m.delegate) attesters.add(m.delegate);
      expect(attesters.size, `${era} has attestations`).to.be.greaterThan(0);
      for (const r of rows) {
        expect(r.n_blocks_endorsed, `${era} ${r.address} attested`).to.equal(attesters.has(r.address) ? '1' : '0');
        const want = oracle.get(`${cycle}_${r.address}`) ?? {};
        for (const c of MONEY) expect(mutez(r[c]), `${era} ${r.address} ${c}`).to.equal(want[c] ?? 0n);
        expect(r.n_baking_rights, 'no node, no rights').to.equal('');
        expect(r.expected_income).to.equal('');
      }
      expect(rows.some((r) => mutez(r.baking_income) > 0n), `${era} baking reward`).to.equal(true);
    });
  });
});
