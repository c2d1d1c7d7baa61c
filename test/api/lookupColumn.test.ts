import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { tableIds } from '../support/tableIds';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A lookup column (flow `op` in tables.yaml): a filter on the operation hash selects the rows whose
// (height, op_n) belong to an operation with that hash; one through columns of other names (flow
// `address_type`): the rows whose account_id is the row_id of an account of that kind. The oracles
// below filter the rows by hand.
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
      acct:
        kind: mutable
        columns:
          - { name: row_id, type: uint64 }
          - { name: kind, type: "enum(implicit,contract,rollup)" }
      move:
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: op_n, type: uint64 }
          - { name: account_id, type: uint64 }
          - { name: op, type: hash(operation), lookup: { table: oper, column: hash, on: [height, op_n] } }
          - { name: account_kind, type: "enum(implicit,contract,rollup)", lookup: { table: acct, column: kind, on: [account_id], by: [row_id] } }
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
// Account 3 has the row_id of no move and the op_n of one: a lookup that joined the wrong columns would show.
const ACCOUNTS = [
  { row_id: 1, kind: 'implicit' },
  { row_id: 2, kind: 'contract' },
  { row_id: 3, kind: 'contract' },
  { row_id: 4, kind: 'rollup' },
];
const MOVES = [
  { row_id: 1, height: 10, op_n: 0, account_id: 1 },
  { row_id: 2, height: 10, op_n: 0, account_id: 2 },
  { row_id: 3, height: 10, op_n: 1, account_id: 1 },
  { row_id: 4, height: 11, op_n: 0, account_id: 3 },
  { row_id: 5, height: 11, op_n: 1, account_id: 2 },
  { row_id: 6, height: 10, op_n: 2, account_id: 1 },
];
const movesOf = (hashes: Array<string | null>): number[] =>
  MOVES.filter((m) => OPS.some((o) => hashes.includes(o.hash) && o.height === m.height && o.op_n === m.op_n)).map(
    (m) => m.row_id,
  );
const movesOfKind = (kinds: string[]): number[] =>
  MOVES.filter((m) => kinds.includes(ACCOUNTS.find((a) => a.row_id === m.account_id)!.kind)).map((m) => m.row_id);

describe(`lookup columns: a filter through another table (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.insert('oper', OPS);
    await t.insert('acct', ACCOUNTS);
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

  it('through columns of other names: account_kind=<kind> returns the rows whose account is of that kind', async function () {
    expect(movesOfKind(['contract'])).to.deep.equal([2, 4, 5]);
    expect(await ids('account_kind=contract')).to.deep.equal(movesOfKind(['contract']));
    expect(await ids('account_kind=implicit')).to.deep.equal(movesOfKind(['implicit']));
    expect(await ids('account_kind=rollup')).to.deep.equal([]);
    expect(await ids('account_kind.in=implicit,contract')).to.deep.equal(movesOfKind(['implicit', 'contract']));
    expect(await ids('account_kind.ne=contract')).to.deep.equal(movesOfKind(['implicit', 'rollup']));
    expect(await ids('account_kind.nin=implicit,rollup')).to.deep.equal(movesOfKind(['contract']));
    expect(await ids(`account_kind=contract&op=${H0}`)).to.deep.equal(
      movesOfKind(['contract']).filter((id) => movesOf([H0]).includes(id)),
    );
    expect(await error('account_kind=wallet')).to.be.a('string');
  });

  it('a bad hash is a 400 JSON error (the value is a bound parameter, never SQL); the column cannot be selected', async function () {
    expect(await error(`op=${encodeURIComponent("x' or 1=1 --")}`)).to.be.a('string');
    expect(await error(`op=${H0.slice(0, -1)}`)).to.be.a('string');
    expect(await error('columns=op')).to.match(/filtered/);
  });

  it('the catalog rejects a lookup through an undeclared table, an unknown column or mismatched on-columns', function () {
    const bad = (lookup: string): void => {
      expect(() => parseCatalog(CATALOG.replace('{ table: oper, column: hash, on: [height, op_n] }', lookup))).to.throw(
        CatalogError,
      );
    };
    bad('{ table: nope, column: hash, on: [height] }');
    bad('{ table: oper, column: height, on: [height] }');
    bad('{ table: oper, column: hash, on: [row_id, op] }');
    bad('{ table: oper, column: hash, on: [] }');
    bad('{ table: oper, column: hash, on: [height, op_n], by: [height] }');
    bad('{ table: oper, column: hash, on: [height], by: [hash] }');
    bad('{ table: oper, column: hash, on: [height], by: [nope] }');
    // The same lookup with its columns named: accepted.
    expect(() =>
      parseCatalog(CATALOG.replace('on: [height, op_n] }', 'on: [height, op_n], by: [height, op_n] }')),
    ).not.to.throw();
  });
});
