import { expect } from 'chai';
import * as path from 'node:path';
import { quote } from '../../framework/storage/SchemaMigrator';
import { generateSql } from '../bench/seriesBench';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// The series bench fills op with 10M rows in SQL; a catalog change it missed stopped `npm run bench`.
describe(`series bench rows fit the catalog's op table (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({
      plugins: [manifestPlugin('core-chain', [])],
      enabled: ['core-chain'],
      config: { catalogFile: path.resolve('tables.yaml') },
    });
  });
  after(async () => t?.close());

  it('inserts its rows into op, and /series/op reads them', async function () {
    const op = t.app.catalog.require('op');
    await t.app.db.writer.raw(generateSql(op, `${quote(op.schema)}.${quote(op.storage)}`, 1000));
    const table = `${quote(op.schema)}.${quote(op.storage)}`;
    // The series counts the rows /tables/op lists: contract events (`event`, `unknown`) only when named.
    const type = op.column('type')!.type;
    const listed = `count(*) filter (where type not in (${type.literal('event')}, ${type.literal('unknown')}))::int as listed`;
    const counts = await t.app.db.writer.raw(`select count(*)::int as n, ${listed} from ${table}`);
    const [{ n, listed: shown }] = counts.rows;
    expect(n).to.equal(1000);
    const res = await t.get(
      '/series/op?collapse=1d&columns=time,count&start_date=2024-01-01T00:00:00Z&end_date=2024-01-02T00:00:00Z',
    );
    expect(res.status).to.equal(200);
    // 1,000 rows every 3.1536 s: all on the first day.
    expect(await res.json()).to.deep.equal([[Date.parse('2024-01-01T00:00:00Z'), shown]]);
  });
});
