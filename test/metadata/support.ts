import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { MetadataPlugin } from '../../plugins/metadata/plugin';
import { startTestInstance, TestInstance } from '../support/TestInstance';

export const PLUGINS = [CoreChainPlugin, MetadataPlugin];
export const GOOD_KEY = 'test-key-7f3a9c';

/** An instance with core-chain and metadata; `writes` makes it private with GOOD_KEY (stored hashed). */
export function metadataInstance(metadata: Record<string, unknown> = {}): Promise<TestInstance> {
  return startTestInstance({ plugins: PLUGINS, config: { metadata: { resolver: { enabled: false }, ...metadata } } });
}

export async function send(
  t: TestInstance,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(t.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** The first error of an error body. */
export function firstError(json: unknown): { code: number; status: number; detail: string } {
  return (json as { errors: Array<{ code: number; status: number; detail: string }> }).errors[0];
}
