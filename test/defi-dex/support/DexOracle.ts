import { expect } from 'chai';
import { fixed18, TKX } from './DexFixture';
import type { TestInstance } from '../../support/TestInstance';
import type { UsdQuotes } from '../../../framework/defi/UsdQuotes';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The quotes the API tests wire: 1 XTZ = 2 USD, 1 TKX = 0.5 XTZ, no path for anything else. */
export const TEST_QUOTES: UsdQuotes = {
  tezUsd: async () => '2',
  tokenTez: async (token) => (token === TKX ? '0.5' : null),
};
/** USD per whole unit, ×10^18, as TEST_QUOTES say. */
export const USD: Record<string, bigint> = { tez: 2n * 10n ** 18n, [TKX]: 10n ** 18n };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(t: TestInstance, path: string): Promise<any> {
  const res = await t.get(path);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).to.equal(200);
  return JSON.parse(text);
}

/** A decimal string truncated to `d` decimals. */
export function cut(text: string, d: number): string {
  const [i, f = ''] = text.split('.');
  return d === 0 ? i : `${i}.${f.padEnd(d, '0').slice(0, d)}`;
}

/** raw/10^d as a decimal string with d decimals. */
export function whole(raw: bigint, d: number): string {
  const s = raw.toString().padStart(d + 1, '0');
  return d === 0 ? s : `${s.slice(0, -d)}.${s.slice(-d)}`;
}

/** a·10^18/b truncated, as 18 decimals (0 when b is 0); negatives truncate toward zero. */
export function q18(a: bigint, b: bigint): string {
  if (b === 0n) return fixed18(0n, 1n);
  const neg = a < 0n !== b < 0n && a !== 0n;
  const v = fixed18(a < 0n ? -a : a, b < 0n ? -b : b);
  return neg && /[1-9]/.test(v) ? `-${v}` : v;
}

export function rfc(t: Date | number | string): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
