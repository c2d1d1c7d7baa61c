import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { tableIds } from '../support/tableIds';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A mapped column (income `time` in tables.yaml): a filter on a time is a filter on the cycle begun
// last by then, as the original turned a time into a cycle. The oracle below maps and filters by hand.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      span:
        kind: mutable
        columns:
          - { name: row_id, type: uint64 }
          - { name: cycle, type: uint64 }
          - { name: owner, type: string }
          - { name: start_time, type: datetime, nullable: true }
          - { name: time, type: datetime, maps_to: { column: cycle, by: start_time } }
        indexes:
          - [start_time]
`;
const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
// Cycles 0 to 3, a day each, two owners per cycle (inserted out of cycle order); a row without a
// start time (not known yet) is never the one a time maps to.
const ROWS = [3, 0, 2, 1].flatMap((cycle) =>
  ['a', 'b'].map((owner) => ({ cycle, owner, start_time: new Date(T0 + cycle * DAY) })),
);
const SPANS = [...ROWS, { cycle: 7, owner: 'a', start_time: null }].map((r, i) => ({ row_id: i + 1, ...r }));
const at = (ms: number): string => new Date(ms).toISOString();
/** The cycle begun last at `ms`: -1 before the first. */
const cycleAt = (ms: number): number =>
  Math.max(-1, ...ROWS.filter((r) => r.start_time.getTime() <= ms).map((r) => r.cycle));
const rowsWhere = (keep: (cycle: number) => boolean): number[] =>
  SPANS.filter((r) => keep(r.cycle)).map((r) => r.row_id);

describe(`mapped columns: a filter on a value's row's column (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.insert('span', SPANS);
  });
  after(async () => t?.close());

  const ids = (query: string): Promise<number[]> => tableIds(t, 'span', query);
  const MID_1 = T0 + 1.5 * DAY;
  const START_2 = T0 + 2 * DAY;
  const BEFORE = T0 - DAY;
  const LATER = T0 + 30 * DAY;

  it('time=<t> returns the rows of the cycle begun last by then, at its first instant too', async function () {
    expect([cycleAt(MID_1), cycleAt(START_2), cycleAt(BEFORE), cycleAt(LATER)]).to.deep.equal([1, 2, -1, 3]);
    for (const ms of [MID_1, START_2, START_2 - 1, LATER])
      expect(await ids(`time=${at(ms)}`), at(ms)).to.deep.equal(rowsWhere((c) => c === cycleAt(ms)));
    expect(await ids(`time=${at(BEFORE)}`)).to.deep.equal([]);
  });

  it('comparisons, ranges and lists compare the cycles', async function () {
    const c = cycleAt(MID_1);
    expect(await ids(`time.gte=${at(MID_1)}`)).to.deep.equal(rowsWhere((x) => x >= c));
    expect(await ids(`time.gt=${at(MID_1)}`)).to.deep.equal(rowsWhere((x) => x > c));
    expect(await ids(`time.lt=${at(MID_1)}`)).to.deep.equal(rowsWhere((x) => x < c));
    expect(await ids(`time.lte=${at(MID_1)}`)).to.deep.equal(rowsWhere((x) => x <= c));
    expect(await ids(`time.ne=${at(MID_1)}`)).to.deep.equal(rowsWhere((x) => x !== c));
    expect(await ids(`time.rg=${at(MID_1)},${at(START_2)}`)).to.deep.equal(rowsWhere((x) => x >= 1 && x <= 2));
    expect(await ids(`time.in=${at(T0)},${at(LATER)}`)).to.deep.equal(rowsWhere((x) => x === 0 || x === 3));
    expect(await ids(`time.nin=${at(T0)},${at(LATER)}`)).to.deep.equal(rowsWhere((x) => x !== 0 && x !== 3));
    // Before every cycle: all of them are later, none earlier.
    expect(await ids(`time.gte=${at(BEFORE)}`)).to.deep.equal(rowsWhere(() => true));
    expect(await ids(`time.lt=${at(BEFORE)}`)).to.deep.equal([]);
    expect(await ids(`time=${at(MID_1)}&owner=b`)).to.deep.equal(
      SPANS.filter((r) => r.cycle === c && r.owner === 'b').map((r) => r.row_id),
    );
  });

  it('a bad time is a 400 JSON error; the column cannot be selected', async function () {
    for (const query of ['time=yesterday-ish', `time=${encodeURIComponent("x' or 1=1 --")}`, 'columns=time']) {
      const res = await t.get(`/tables/span?${query}`);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).to.equal(400);
      expect((JSON.parse(text) as { errors: Array<{ detail: string }> }).errors[0].detail).not.to.match(
        /select|from "/i,
      );
    }
  });

  it('the catalog rejects a mapping to an unknown column, by a column of another type or without an index, or with another kind', function () {
    const bad = (mapping: string, indexes = '[start_time]'): void => {
      const yaml = CATALOG.replace('maps_to: { column: cycle, by: start_time }', mapping).replace(
        '- [start_time]',
        `- ${indexes}`,
      );
      expect(() => parseCatalog(yaml), mapping).to.throw(CatalogError);
    };
    bad('maps_to: { column: nope, by: start_time }');
    bad('maps_to: { column: cycle, by: cycle }');
    bad('maps_to: { column: cycle, by: time }');
    bad('maps_to: { column: cycle, by: start_time }', '[cycle, start_time]');
    bad('maps_to: { column: cycle, by: start_time }, any_of: [start_time]');
    expect(() => parseCatalog(CATALOG)).not.to.throw();
  });
});
