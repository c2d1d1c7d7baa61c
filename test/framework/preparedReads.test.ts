import { expect } from 'chai';
import { objectJson } from '../../framework/http/ObjectResponder';
import { Database } from '../../framework/storage/Database';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';

describe(`prepared reads (${BACKEND})`, function () {
  // One read connection, so the statements it prepared can be listed through the same pool.
  const database = scratchDatabase({ readPoolSize: 1 });
  let db: Database;
  before(async function () {
    db = database();
    await db.writer.raw('create table t (k int primary key, v text)');
    await db.writer.raw(`insert into t values (1, 'one'), (2, 'two'), (3, null)`);
  });
  const byKey = (k: number) => db.reader('t').select(db.reader.raw('v, k::text')).where('k', k);

  it('answers as an unprepared read does, for every value of the parameters', async function () {
    for (const k of [1, 2, 3, 4]) {
      expect(await db.selectRows(byKey(k), { prepare: true }), `k=${k}`).to.deep.equal(await db.selectRows(byKey(k)));
    }
  });

  it('prepares each statement text once per connection on Postgres, under one name per text', async function () {
    if (db.kind !== 'postgres') this.skip();
    await db.selectRows(byKey(1), { prepare: true });
    await db.selectRows(byKey(2), { prepare: true });
    await db.selectRows(db.reader('t').select(db.reader.raw('k::text')).where('v', 'two'), { prepare: true });
    await db.selectRows(byKey(1));
    const names = (await db.selectRows(db.reader.raw(`select name from pg_prepared_statements order by name`))).map(
      (r) => r[0],
    );
    expect(names).to.have.length(2);
    for (const name of names) expect(name).to.match(/^tzidx_[\w-]+$/);
  });
});

describe('object JSON', function () {
  it('writes bigints as exact numbers and everything else as JSON.stringify does', function () {
    const plain = { a: 1, b: 'x\u0000bigint:5', c: [true, null, { d: 2.5 }] };
    expect(objectJson(plain)).to.equal(JSON.stringify(plain));
    expect(objectJson({ id: 2n ** 63n - 1n, list: [-(2n ** 60n)], s: 'y' })).to.equal(
      '{"id":9223372036854775807,"list":[-1152921504606846976],"s":"y"}',
    );
  });
});
