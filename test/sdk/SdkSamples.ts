import { expect } from 'chai';
import type { TestInstance } from '../support/TestInstance';

type Row = unknown[];

async function rows(t: TestInstance, query: string): Promise<Row[]> {
  const res = await t.get(query);
  const text = await res.text();
  expect(res.status, `${query}: ${text.slice(0, 200)}`).to.equal(200);
  return JSON.parse(text) as Row[];
}

/**
 * Ids to put into route templates, read from the indexed chain through the tables API: several per
 * placeholder where the answer's shape depends on the object (one operation of every type, a baker,
 * a user and a contract, every big map).
 */
export async function sdkSamples(t: TestInstance): Promise<Record<string, string[]>> {
  const head = (await rows(t, '/tables/block?columns=height&order=desc&limit=1&is_orphan=0'))[0][0] as number;
  const ops = await rows(t, '/tables/op?columns=type,hash,block&limit=50000');
  const byType = new Map<string, Row>();
  for (const r of ops) if (r[1] !== null && !byType.has(r[0] as string)) byType.set(r[0] as string, r);
  const first = async (q: string): Promise<string[]> => (await rows(t, q)).slice(0, 1).map((r) => String(r[0]));
  const bigmaps = (await rows(t, '/tables/bigmaps?columns=bigmap_id&limit=50')).map((r) => String(r[0]));
  const keys: string[] = [];
  for (const id of bigmaps.slice(0, 8)) {
    const res = await t.get(`/explorer/bigmap/${id}/values?limit=1`);
    const values = (await res.json()) as Array<{ hash: string }>;
    if (values.length > 0) keys.push(`${id}/${values[0].hash}`);
  }
  const contract = await first('/tables/op?columns=receiver&is_contract=1&type=transaction&limit=1');
  return {
    height: [String(head - 1)],
    block: [...new Set(ops.slice(-200).map((r) => r[2] as string))].slice(0, 3),
    op: [...byType.values()].map((r) => r[1] as string),
    account: [
      ...(await first('/tables/account?columns=address&is_baker=1&limit=1')),
      ...(await first('/tables/account?columns=address&is_baker=0&is_contract=0&is_funded=1&limit=1')),
      ...contract,
    ],
    contract: [...contract, ...(await first('/tables/contract?columns=address&order=desc&limit=1'))],
    /** A called contract (its calls are not empty) and an originator (its contracts are not). */
    called: contract,
    creator: await first('/tables/contract?columns=creator&creator.ne=&limit=1'),
    constant: await first('/tables/constant?columns=address&limit=1'),
    election: await first('/tables/election?columns=row_id&limit=1'),
    stage: ['1'],
    voter: await first('/tables/ballot?columns=source&limit=1'),
    /** A baker someone delegated to (its delegations list is not empty). */
    baker: await first('/tables/op?columns=baker&type=delegation&status=applied&is_internal=0&limit=1'),
    /** A funded user (the bakers that have room for its tez are suggested to it). */
    delegator: await first('/tables/account?columns=address&is_baker=0&is_contract=0&is_funded=1&limit=1'),
    bigmap: bigmaps.slice(0, 8),
    /** `{bigmap id}/{key hash}` of big maps that hold keys. */
    bigmapKey: keys,
    /** DEX pools that have trades (their lists are not empty), and an account that traded. */
    pool: await distinct(t, '/tables/dex_trade?columns=pool&limit=50000'),
    /** DEX pools and farms that have positions. */
    positionPool: await distinct(t, '/tables/dex_position?columns=pool&limit=50000'),
    positionFarm: await distinct(t, '/tables/farm_position?columns=pool&limit=50000'),
    /** Accounts with both a position and a trade: each wallet list then has something to decode. */
    dexWallet: await (async () => {
      const traders = new Set((await rows(t, '/tables/dex_trade?columns=sender&limit=50000')).map((r) => String(r[0])));
      return (await rows(t, '/tables/dex_position?columns=owner&limit=50000'))
        .map((r) => String(r[0]))
        .filter((o) => traders.has(o))
        .slice(0, 2);
    })(),
    /** Farms that have events, and stakers (every farm position comes from the owner's own calls). */
    farm: await distinct(t, '/tables/farm_event?columns=pool&limit=50000'),
    farmWallet: [
      ...new Set((await rows(t, '/tables/farm_position?columns=owner&limit=50000')).map((r) => String(r[0]))),
    ].slice(0, 2),
    /** Lending markets that have events, and owners (every lending position comes from the owner's own calls). */
    lendPool: await distinct(t, '/tables/lend_event?columns=pool&limit=50000'),
    /** `{exchange}/{market}` of the simulated exchange's tickers. */
    market: (await rows(t, '/tables/market_ticker?columns=exchange,pair&limit=2')).map((r) => `${r[0]}/${r[1]}`),
    lendWallet: [
      ...new Set((await rows(t, '/tables/lend_position?columns=owner&limit=50000')).map((r) => String(r[0]))),
    ].slice(0, 2),
  };
}

/** The distinct values of a one-column table query. */
async function distinct(t: TestInstance, query: string): Promise<string[]> {
  return [...new Set((await rows(t, query)).map((r) => String(r[0])))];
}

/** Every path of a template with each combination of sample values. */
export function expand(template: string, samples: Record<string, string[]>): string[] {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return [template];
  let out = [template];
  for (const n of names) {
    const values = samples[n] ?? [];
    out = out.flatMap((p) => values.map((v) => p.replace(`{${n}}`, v)));
  }
  return out;
}
