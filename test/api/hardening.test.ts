import * as http from 'node:http';
import { expect } from 'chai';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      msg:
        columns:
          - { name: row_id, type: uint64 }
          - { name: sender, type: address, nullable: true }
          - { name: receiver, type: address, nullable: true }
          - { name: label, type: string }
          - { name: time, type: datetime, nullable: true }
          - { name: address, type: address, nullable: true, any_of: [sender, receiver], description: filter-only }
          - { name: id, type: uint64, alias_of: row_id }
`;
const A = 'tz1burnburnburnburnburnburnburjAYjjX';
const B = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
const C = 'tz1NbDzUQCcV2kp3wxdVHVSZEDeq2h97mweW';
interface Msg {
  row_id: number;
  sender: string | null;
  receiver: string | null;
  label: string;
  time: string | null;
}
const ROWS: Msg[] = [
  { row_id: 1, sender: A, receiver: B, label: 'ab', time: '0010-06-01T00:00:00Z' },
  { row_id: 2, sender: B, receiver: C, label: 'bc', time: '1950-06-01T00:00:00Z' },
  { row_id: 3, sender: C, receiver: null, label: 'c', time: '2020-01-01T00:00:00Z' },
  { row_id: 4, sender: null, receiver: A, label: 'a', time: null },
];

async function rows(t: TestInstance, query: string): Promise<unknown[][]> {
  const res = await t.get(`/tables/msg?${query}`);
  const text = await res.text();
  expect(res.status, `${query}: ${text.slice(0, 300)}`).to.equal(200);
  return JSON.parse(text) as unknown[][];
}
const ids = async (t: TestInstance, query: string): Promise<number[]> =>
  (await rows(t, `columns=row_id&${query}`)).map((r) => r[0] as number);

async function jsonError(res: Response, status: number): Promise<string> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).to.equal(status);
  const e = (JSON.parse(text) as { errors: Array<{ status: number; detail: string }> }).errors[0];
  expect(e.status).to.equal(status);
  return e.detail;
}

describe(`API hardening: hostile and edge input (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.insert(
      'msg',
      ROWS.map((r) => ({ ...r, time: r.time === null ? null : new Date(r.time) })),
    );
  });
  after(async () => t?.close());

  it('an `in` list of 450 addresses (~16 KB URL) and a 1 MB URL are answered, not refused with an empty 431', async function () {
    const many = Array.from({ length: 450 }, (_, i) => (i === 7 ? B : A)).join(',');
    expect(await ids(t, `sender.in=${many}`)).to.deep.equal(
      ROWS.filter((r) => r.sender === A || r.sender === B).map((r) => r.row_id),
    );
    const huge = Array.from({ length: 5_000 }, (_, i) => `${i}`.padStart(200, 'x')).join(',');
    expect(huge.length).to.be.greaterThan(1_000_000);
    expect(await ids(t, `label.in=${huge},bc`)).to.deep.equal([2]);
  });

  it('headers beyond the limit get a JSON 431, not an empty body or a reset', async function () {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(`${t.url}/tables/msg`, { headers: { 'X-Big': 'x'.repeat(3 * 1024 * 1024) } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
    });
    expect(status).to.equal(431);
    expect(JSON.parse(body).errors[0]).to.include({ status: 431 });
  });

  it('bad regular expressions and NUL bytes are 400s whose detail holds no SQL', async function () {
    for (const q of ['label.re=(', 'label.re=%5B', 'label=a%00b', 'sender=%00']) {
      const detail = await jsonError(await t.get(`/tables/msg?${q}`), 400);
      expect(detail, q).to.not.match(/select|from|"fixture"|\$\d/i);
    }
  });

  it('TRACE and other unknown methods: 405 in the JSON error format', async function () {
    for (const method of ['TRACE', 'PROPFIND', 'DELETE']) {
      const res = await fetch(`${t.url}/tables/msg`, { method: method === 'TRACE' ? 'PATCH' : method }).catch(
        () => undefined,
      );
      // fetch refuses to send TRACE itself: node:http does.
      const status = method === 'TRACE' ? await rawStatus(t.url, 'TRACE') : res!.status;
      expect(status, method).to.equal(405);
    }
    expect(await jsonError(await fetch(`${t.url}/tables/msg`, { method: 'DELETE' }), 405)).to.be.a('string');
  });

  it('uint64 arguments take the whole range: 2^64-1 is past every row, not "out of range"', async function () {
    const all = ROWS.map((r) => r.row_id);
    expect(await ids(t, 'row_id.lt=18446744073709551615')).to.deep.equal(all);
    expect(await ids(t, 'row_id.gt=18446744073709551615')).to.deep.equal([]);
    expect(await ids(t, 'cursor=18446744073709551615&order=desc')).to.deep.equal([...all].reverse());
    expect(await ids(t, 'cursor=18446744073709551615')).to.deep.equal([]);
    await jsonError(await t.get('/tables/msg?row_id.lt=18446744073709551616'), 400);
  });

  it('years 0000-0099 stay years 0-99 (not 1900-1999)', async function () {
    const before = (iso: string): number[] =>
      ROWS.filter((r) => r.time !== null && Date.parse(r.time) < Date.parse(iso)).map((r) => r.row_id);
    expect(await ids(t, 'time.lt=0050-01-01'))
      .to.deep.equal(before('0050-01-01T00:00:00Z'))
      .and.have.length(1);
    expect(await ids(t, 'time.lt=0099')).to.deep.equal(before('0099-01-01T00:00:00Z'));
    expect(await ids(t, 'time.gte=0011-01-01&time.lt=1960')).to.deep.equal([2]);
  });

  it('a filter-only any_of column matches any of its columns (ne/nin: none); it cannot be selected', async function () {
    const any = (x: string): number[] => ROWS.filter((r) => r.sender === x || r.receiver === x).map((r) => r.row_id);
    expect(await ids(t, `address=${A}`))
      .to.deep.equal(any(A))
      .and.have.length(2);
    expect(await ids(t, `address.in=${B},${C}`)).to.deep.equal([...new Set([...any(B), ...any(C)])].sort());
    expect(await ids(t, `address.ne=${A}`)).to.deep.equal(
      ROWS.filter((r) => r.sender !== A && r.receiver !== A).map((r) => r.row_id),
    );
    expect(await jsonError(await t.get('/tables/msg?columns=address'), 400)).to.contain('filtered');
  });

  it('an alias column reads and filters its stored column; verbose and an empty order are accepted', async function () {
    expect(await rows(t, 'columns=id,row_id&id.gte=3&verbose=true&order=')).to.deep.equal([
      [3, 3],
      [4, 4],
    ]);
  });

  it('null times are 0 in compact rows (Go clients cannot parse null), empty in CSV', async function () {
    expect(await rows(t, 'columns=row_id,time&row_id=4')).to.deep.equal([[4, 0]]);
    const res = await t.get('/tables/msg.csv?columns=row_id,time&row_id=4');
    expect((await res.text()).trim().split('\r\n')[1]).to.equal('4,');
  });

  it('a table whose storage is missing (a database migrated with fewer plugins) answers 404, not 500', async function () {
    await t.app.db.writer.raw('drop table fixture.msg');
    await jsonError(await t.get('/tables/msg'), 404);
  });
});

function rawStatus(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/tables/msg`, { method }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}
