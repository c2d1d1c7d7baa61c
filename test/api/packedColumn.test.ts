import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { CatalogRows } from '../../framework/explorer/CatalogRows';
import { applyFilters } from '../../framework/query/TableQueryEngine';
import type { Filter } from '../../framework/query/TableRequest';
import { heldColumns, tableIds } from '../support/tableIds';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A packed column (op `id` = height << 16 | op_n in tables.yaml): its filters run as row comparisons
// on (height, op_n) and must answer what the same filter on the stored id would. The oracle filters
// OPS by their id by hand.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      oper:
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: op_n, type: uint64 }
          - { name: id, type: uint64, packs: { high: height, low: op_n, bits: 16 } }
        indexes:
          - [height]
`;
const POSITIONS: Array<[number, number]> = [
  [10, 0],
  [10, 1],
  [10, 65535],
  [11, 0],
  [11, 7],
  [12, 3],
  [300, 2],
];
const OPS = POSITIONS.map(([height, op_n], i) => ({
  row_id: i + 1,
  height,
  op_n,
  id: (BigInt(height) << 16n) | BigInt(op_n),
}));
const where = (keep: (id: bigint) => boolean): number[] => OPS.filter((o) => keep(o.id)).map((o) => o.row_id);
const id = (height: number, opN: number): bigint => (BigInt(height) << 16n) | BigInt(opN);

/** The same id computed on every read (`stored: false`), as op `id` is. */
const COMPUTED = CATALOG.replace('bits: 16 }', 'bits: 16, stored: false }');

for (const stored of [true, false])
  describe(`packed columns: filters on the columns a value packs${stored ? '' : ', the value computed'} (${BACKEND})`, function () {
    let t: TestInstance;
    before(async function () {
      t = await startTestInstance({ catalogYaml: stored ? CATALOG : COMPUTED, plugins: [manifestPlugin('fixture')] });
      await t.insert('oper', OPS);
    });
    after(async () => t?.close());

    const ids = (query: string): Promise<number[]> => tableIds(t, 'oper', query);

    it('eq, ne, in and nin answer what they would on the stored id', async function () {
      const a = id(10, 65535);
      const b = id(11, 7);
      expect(await ids(`id=${a}`)).to.deep.equal(where((x) => x === a));
      expect(await ids(`id=${id(10, 2)}`)).to.deep.equal([]);
      expect(await ids(`id.ne=${a}`)).to.deep.equal(where((x) => x !== a));
      expect(await ids(`id.in=${a},${b}`)).to.deep.equal(where((x) => x === a || x === b));
      expect(await ids(`id.nin=${a},${b}`)).to.deep.equal(where((x) => x !== a && x !== b));
    });

    it('a long in list (400 ids, more than PGlite takes as a row-value list) answers its rows', async function () {
      const wanted = [OPS[1].id, OPS[5].id, ...Array.from({ length: 398 }, (_, i) => id(5000 + i, i % 3))];
      expect(await ids(`id.in=${wanted.join(',')}&limit=1000`)).to.deep.equal(where((x) => wanted.includes(x)));
      expect(await ids(`id.nin=${wanted.join(',')}&limit=1000`)).to.deep.equal(where((x) => !wanted.includes(x)));
    });

    it('comparisons and ranges order by height, then op_n (an op_n of 65535 sorts before the next height)', async function () {
      const a = id(10, 65535);
      const b = id(12, 3);
      expect(await ids(`id.gt=${a}`)).to.deep.equal(where((x) => x > a));
      expect(await ids(`id.gte=${a}`)).to.deep.equal(where((x) => x >= a));
      expect(await ids(`id.lt=${b}`)).to.deep.equal(where((x) => x < b));
      expect(await ids(`id.lte=${b}`)).to.deep.equal(where((x) => x <= b));
      expect(await ids(`id.rg=${a},${b}`)).to.deep.equal(where((x) => x >= a && x <= b));
      expect(await ids(`id.gt=${2n ** 64n - 1n}`)).to.deep.equal([]);
    });

    it('an id filter reaches its rows through the height index, also a range under a row-id order and limit', async function () {
      const db = t.app.db.writer;
      const packed = stored ? [', id', ', ((1000 + g / 50)::bigint << 16) | (g % 50)'] : ['', ''];
      await db.raw(
        `insert into fixture.oper (row_id, height, op_n${packed[0]}) select 100 + g, 1000 + g / 50, g % 50${packed[1]} from generate_series(1, 3000) g`,
      );
      await db.raw('analyze fixture.oper');
      const oper = t.app.catalog.require('oper');
      // The row id of generate_series' g: height 1000 + g / 50, op_n g % 50, row id 100 + g.
      const g = (height: number, opN: number): number => 100 + (height - 1000) * 50 + opN;
      const fixture = OPS.map((o) => o.row_id);
      const cases: Array<[string, string[], number[]]> = [
        ['eq', [id(1010, 4).toString()], [g(1010, 4)]],
        ['gte', [id(1059, 48).toString()], [g(1059, 48), g(1059, 49), g(1060, 0)]],
        ['gt', [id(1059, 48).toString()], [g(1059, 49), g(1060, 0)]],
        ['lt', [id(1000, 3).toString()], [...fixture, g(1000, 1), g(1000, 2)]],
        ['lte', [id(1000, 3).toString()], [...fixture, g(1000, 1), g(1000, 2), g(1000, 3)]],
        ['rg', [id(1010, 48).toString(), id(1011, 1).toString()], [g(1010, 48), g(1010, 49), g(1011, 0), g(1011, 1)]],
      ];
      for (const [op, values, expected] of cases) {
        // As a list asks: ordered by row id, with a limit (where a row-id index walk looks cheap).
        const q = db.withSchema(oper.schema).from(oper.storage).select('row_id').orderBy('row_id').limit(50);
        applyFilters(q, [{ column: oper.column('id')!, op: op as Filter['op'], values }]);
        const plan = (await db.raw(`explain ${q.toString()}`)).rows
          .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
          .join('\n');
        expect(plan, `${op}: ${plan}`).to.match(/oper_height_idx/);
        expect(
          (await q).map((r: { row_id: string | number }) => Number(r.row_id)),
          op,
        ).to.deep.equal(expected);
      }
    });

    it('the catalog rejects packing a nullable or non-integer column, or packing a column into itself', function () {
      const bad = (packs: string): void => {
        expect(() => parseCatalog(CATALOG.replace('{ high: height, low: op_n, bits: 16 }', packs))).to.throw(
          CatalogError,
        );
      };
      bad('{ high: height, low: nope, bits: 16 }');
      bad('{ high: height, low: id, bits: 16 }');
      bad('{ high: height, low: height, bits: 16 }');
      bad('{ high: height, low: op_n, bits: 0 }');
      expect(() =>
        parseCatalog(
          CATALOG.replace(
            'type: uint64 }\n          - { name: id',
            'type: uint64, nullable: true }\n          - { name: id',
          ),
        ),
      ).to.throw(CatalogError, /not two other/);
    });

    if (stored) return;

    it('the rows do not hold it; lists, explorer rows and the ids of the rows after the fixture (ne, nin) compute it', async function () {
      const oper = t.app.catalog.require('oper');
      expect(await heldColumns(t.app.db, oper)).to.deep.equal(['row_id', 'height', 'op_n']);
      const res = await t.get(`/tables/oper?columns=row_id,id&row_id.lte=${OPS.length}`);
      expect(await res.json()).to.deep.equal(OPS.map((o) => [o.row_id, Number(o.id)]));
      const rows = new CatalogRows(t.app.db, oper, ['id']);
      expect(await rows.read(rows.query().where('row_id', 3))).to.deep.equal([{ id: Number(OPS[2].id) }]);
      const a = id(10, 65535);
      expect(await ids(`id.ne=${a}&row_id.lte=${OPS.length}`)).to.deep.equal(where((x) => x !== a));
      expect(await ids(`id.nin=${a},${OPS[4].id}&row_id.lte=${OPS.length}`)).to.deep.equal(
        where((x) => x !== a && x !== OPS[4].id),
      );
      expect(() => parseCatalog(COMPUTED.replace('      oper:\n', '      oper:\n        kind: mutable\n'))).to.throw(
        CatalogError,
        /only in an append table/,
      );
      expect(() =>
        parseCatalog(COMPUTED.replace('          - [height]\n', '          - [height]\n          - [id]\n')),
      ).to.throw(CatalogError, /not stored in the rows/);
    });
  });
