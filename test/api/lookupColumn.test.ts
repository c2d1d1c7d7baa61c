import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { tableIds } from '../support/tableIds';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A lookup column (flow `op` in tables.yaml): a filter on the operation hash selects the rows whose
// (height, op_n) belong to an operation with that hash. The oracle below filters ROWS by hand.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      oper:
        columns:
          - { name: row_id, type: uint64 }
          - { name: hash, type: hash(operation), nullable: true }
          - { name: height, type: uint64 }
          - { name: op_n, type: uint64 }
      move:
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: op_n, type: uint64 }
          - { name: op, type: hash(operation), lookup: { table: oper, column: hash, on: [height, op_n] } }
`;
const H0 = 'oneDGhZacw99EEFaYDTtWfz5QEhUW3PPVFsHa7GShnLPuDn7gSd';
const H1 = 'onmjDWrnLtvHqYtdGPSRSdMjCK1KgHi7YJLdKauuNRfkjTA6Voo';
const UNUSED = 'onuFAL9z4rhSSsXfzZQxNajNzPKArY2qbLoy54ZN3517ZnrUqpH';
// H0 is a batch of two operations in block 10; H1 sits at op_n 0 of block 11 (the same op_n as H0's
// first operation, in another block); block 11 op_n 1 is an implicit event without hash.
const OPS = [
  { row_id: 1, hash: H0, height: 10, op_n: 0 },
  { row_id: 2, hash: H0, height: 10, op_n: 1 },
  { row_id: 3, hash: H1, height: 11, op_n: 0 },
  { row_id: 4, hash: null, height: 11, op_n: 1 },
];
const MOVES = [
  { row_id: 1, height: 10, op_n: 0 },
  { row_id: 2, height: 10, op_n: 0 },
  { row_id: 3, height: 10, op_n: 1 },
  { row_id: 4, height: 11, op_n: 0 },
  { row_id: 5, height: 11, op_n: 1 },
  { row_id: 6, height: 10, op_n: 2 },
];
const movesOf = (hashes: Array<string | null>): number[] =>
  MOVES.filter((m) => OPS.some((o) => hashes.includes(o.hash) && o.height === m.height && o.op_n === m.op_n)).map((m) => m.row_id);

describe(`lookup columns: a filter through another table (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.insert('oper', OPS);
    await t.insert('move', MOVES);
  });
  after(async () => t?.close());

  const ids = (query: string): Promise<number[]> => tableIds(t, 'move', query);
  async function error(query: string): Promise<string> {
    const res = await t.get(`/tables/move?${query}`);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).to.equal(400);
    const detail = (JSON.parse(text) as { errors: Array<{ detail: string }> }).errors[0].detail;
    expect(detail).not.to.match(/select|from "/i);
    return detail;
  }

  it('op=<hash> returns the rows of every operation with that hash, and only those', async function () {
    expect(movesOf([H0])).to.deep.equal([1, 2, 3]);
    expect(await ids(`op=${H0}`)).to.deep.equal(movesOf([H0]));
    expect(await ids(`op=${H1}`)).to.deep.equal(movesOf([H1]));
    expect(await ids(`op=${UNUSED}`)).to.deep.equal([]);
    expect(await ids(`op.in=${H0},${H1}`)).to.deep.equal(movesOf([H0, H1]));
  });

  it('ne/nin: rows of no operation with that hash (implicit events and unmatched rows included)', async function () {
    const all = MOVES.map((m) => m.row_id);
    const notH0 = all.filter((id) => !movesOf([H0]).includes(id));
    expect(await ids(`op.ne=${H0}`)).to.deep.equal(notH0);
    expect(await ids(`op.nin=${H0},${H1}`)).to.deep.equal(all.filter((id) => !movesOf([H0, H1]).includes(id)));
  });

  it('a bad hash is a 400 JSON error (the value is a bound parameter, never SQL); the column cannot be selected', async function () {
    expect(await error(`op=${encodeURIComponent("x' or 1=1 --")}`)).to.be.a('string');
    expect(await error(`op=${H0.slice(0, -1)}`)).to.be.a('string');
    expect(await error('columns=op')).to.match(/filtered/);
  });

  it('the catalog rejects a lookup through an undeclared table, an unknown column or mismatched on-columns', function () {
    const bad = (lookup: string): void => {
      expect(() => parseCatalog(CATALOG.replace('{ table: oper, column: hash, on: [height, op_n] }', lookup))).to.throw(CatalogError);
    };
    bad('{ table: nope, column: hash, on: [height] }');
    bad('{ table: oper, column: height, on: [height] }');
    bad('{ table: oper, column: hash, on: [row_id, op] }');
    bad('{ table: oper, column: hash, on: [] }');
  });
});
