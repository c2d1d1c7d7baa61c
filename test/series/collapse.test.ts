import { expect } from 'chai';
import { Collapse, COLLAPSE_CODES } from '../../framework/series/Collapse';
import { Database } from '../../framework/storage/Database';
import { prng } from '../support/SampleTable';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';
import { bucketAdd, bucketOf } from './SeriesOracle';

/** Random instants from 1950 to 2100 plus the calendar's edges (month ends, leap days, year ends, a Monday). */
function instants(): number[] {
  const rnd = prng(99);
  const edges = [
    '1969-12-29T00:00:00Z',
    '1969-12-31T23:59:59.999Z',
    '1970-01-01T00:00:00Z',
    '2000-02-29T23:59:59.999Z',
    '2024-03-31T23:59:59.999Z',
    '2024-04-01T00:00:00Z',
    '2024-12-30T00:00:00Z',
    '2099-12-31T23:59:59.999Z',
  ];
  const out = edges.map(Date.parse);
  const [lo, hi] = [Date.UTC(1950, 0, 1), Date.UTC(2100, 0, 1)];
  for (let i = 0; i < 3000; i++) out.push(lo + Math.floor(rnd() * (hi - lo)));
  return out;
}

describe('collapse buckets', function () {
  const times = instants();

  for (const code of COLLAPSE_CODES) {
    it(`${code}: truncate and add agree with plain calendar arithmetic`, function () {
      const c = Collapse.of(code);
      for (const t of times) {
        const b = c.truncate(t);
        expect(b, `${code} ${new Date(t).toISOString()}`).to.equal(bucketOf(t, code));
        for (const k of [-13, -1, 1, 5]) expect(c.add(b, k)).to.equal(bucketAdd(b, k, code));
      }
    });
  }

  it('parses the listed collapses only (case matters: M is months, m minutes)', function () {
    expect(Collapse.parse(undefined).code).to.equal('1m');
    expect(Collapse.parse('1M').code).to.equal('1M');
    for (const bad of ['2d', '1D', 'd', '1q', '0m', '-1h', '1 h'])
      expect(() => Collapse.parse(bad), bad).to.throw(/invalid collapse/);
  });

  describe(`SQL buckets equal JS buckets (${BACKEND})`, function () {
    const database = scratchDatabase();
    let db: Database;
    beforeEach(() => (db = database()));

    for (const code of COLLAPSE_CODES) {
      it(code, async function () {
        const c = Collapse.of(code);
        const rows = await db.selectRows(
          db.reader.raw(
            `select (extract(epoch from ${c.bucketSql('t')}) * 1000)::bigint::text from unnest(?::timestamptz[]) as u(t)`,
            [times.map((t) => new Date(t).toISOString())],
          ),
        );
        expect(rows.map((r) => Number(r[0]))).to.deep.equal(times.map((t) => c.truncate(t)));
      });
    }
  });
});
