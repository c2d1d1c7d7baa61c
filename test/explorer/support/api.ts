import { expect } from 'chai';
import type { TestInstance } from '../../support/TestInstance';

export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GET a path that must answer 200 with JSON. */
export async function getJson<T = Obj>(t: TestInstance, path: string): Promise<T> {
  const res = await t.get(path);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).to.equal(200);
  return JSON.parse(text) as T;
}

/** GET a path that must fail with the given status and error code. */
export async function expectError(t: TestInstance, path: string, status: number, code: number): Promise<string> {
  const res = await t.get(path);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).to.equal(status);
  const body = JSON.parse(text) as { errors: Array<{ code: number; detail: string }> };
  expect(body.errors[0].code, path).to.equal(code);
  return body.errors[0].detail;
}

/** The ETag of an answer, and that the same request with If-None-Match answers 304 with no body. */
export async function expectNotModified(t: TestInstance, path: string): Promise<void> {
  const first = await t.get(path);
  expect(first.status, path).to.equal(200);
  const etag = first.headers.get('etag');
  expect(etag, path).to.be.a('string');
  const again = await t.get(path, { 'If-None-Match': etag! });
  expect(again.status, path).to.equal(304);
  expect(await again.text()).to.equal('');
}

/**
 * Every object of an explorer list, read page by page with `cursor` (the last row_id) or `offset`,
 * in one order; fails if a page repeats an object.
 */
export async function readAllPages(
  t: TestInstance,
  path: string,
  order: 'asc' | 'desc',
  by: 'cursor' | 'offset',
  limit: number,
): Promise<Obj[]> {
  const out: Obj[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 0; page < 10_000; page++) {
    const position =
      by === 'offset' ? `&offset=${out.length}` : out.length > 0 ? `&cursor=${out[out.length - 1].row_id}` : '';
    const items = await getJson<Obj[]>(t, `${path}${sep}order=${order}&limit=${limit}${position}`);
    expect(items.length).to.be.at.most(limit);
    out.push(...items);
    if (items.length < limit) break;
  }
  const ids = out.map((o) => o.row_id as number);
  expect(new Set(ids).size, `${path}: an object came twice`).to.equal(ids.length);
  const sorted = [...ids].sort((a, b) => (order === 'asc' ? a - b : b - a));
  expect(ids, `${path}: not in ${order} row_id order`).to.deep.equal(sorted);
  return out;
}
