import { expect } from 'chai';
import { TABLE_PROFILE } from '../../framework/query/ListProfile';
import { TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { parseTableRequest } from '../../framework/query/TableRequest';
import { SandboxChain } from '../../framework/sandbox';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { droppedRows } from '../support/queryPlans';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// An account's flows from a time or cycle on (/tables/flow?address=…&time.gte=…): the bound is a
// row-id bound (TableQueryEngine.boundRowIds), which flow's (account_id, row_id) index takes with
// the account, reading only the rows answered. An (account_id, height) index read every flow of the
// account and dropped those before the bound: for a baker on mainnet, millions.
describe(`core-chain: an account's flows after a time bound read no earlier flows (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    const chain = new SandboxChain({ seed: 'flow-account', profile: 'mainnet-like' });
    chain.bake(120);
    await indexSandbox(t, chain, {});
    await t.app.db.writer.raw('analyze core_chain.flow');
  });
  after(async () => t?.close());

  it('takes the account and the bound in one index range, in both orders', async function () {
    const { rows } = await t.app.db.writer.raw(
      'select a.address, count(*) as n from core_chain.flow f join core_chain.account a on a.row_id = f.account_id group by a.address order by n desc limit 1',
    );
    const busiest = rows[0] as { address: string; n: string };
    expect(Number(busiest.n)).to.be.above(100);
    const flow = t.app.catalog.require('flow');
    const engine = t.app.container.resolve(TableQueryEngine);
    const at = async (height: number): Promise<string> =>
      new Date(
        (await t.app.db.writer.raw('select time from core_chain.block where height = ?', [height])).rows[0].time,
      ).toISOString();
    const cases: Array<[Record<string, string>, 'asc' | 'desc']> = [
      [{ 'time.gte': await at(100) }, 'asc'],
      [{ 'time.lte': await at(20) }, 'desc'],
      [{ 'time.rg': `${await at(60)},${await at(70)}` }, 'asc'],
    ];
    for (const [args, order] of cases) {
      const req = parseTableRequest(
        flow,
        { columns: 'row_id,height', limit: '20', order, address: busiest.address, ...args },
        TABLE_PROFILE,
      );
      const q = engine.query(flow, req, 'compact', undefined, 0, 20);
      const { dropped, plan } = await droppedRows(t.app.db, q.toString());
      expect(dropped, `${JSON.stringify(args)}: ${JSON.stringify(plan)}`).to.be.below(20);
      const answer = (await q) as unknown as Array<{ c1: string }>;
      expect(answer.length, JSON.stringify(args)).to.be.above(0);
    }
  });
});
