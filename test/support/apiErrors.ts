import { expect } from 'chai';

export interface ApiErrorEntry {
  code: number;
  status: number;
  message: string;
  scope: string;
  detail: string;
  request_id?: string;
}

/**
 * Checks that a response is exactly one error in the service's JSON error format with the given
 * status and code, and returns it for further checks.
 */
export async function expectApiError(res: Response, status: number, code: number, label = ''): Promise<ApiErrorEntry> {
  const text = await res.text();
  let body: { errors?: ApiErrorEntry[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${label} (${res.status}) is not JSON: ${text.slice(0, 200)}`);
  }
  expect(res.status, label).to.equal(status);
  expect(res.headers.get('content-type'), label).to.match(/^application\/json/);
  expect(body.errors, label).to.have.length(1);
  const error = body.errors![0];
  expect(error, label).to.include({ code, status });
  expect(error.detail, label).to.be.a('string').and.not.equal('');
  expect(error.request_id, label).to.equal(res.headers.get('x-request-id'));
  return error;
}
