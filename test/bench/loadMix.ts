import { Prng } from '../../framework/sandbox/Prng';
import type { TestInstance } from '../support/TestInstance';

/** The kinds of route the load mixes, and the share of requests each gets. */
export const KINDS = ['tables', 'series', 'explorer', 'plugins'] as const;
export type Kind = (typeof KINDS)[number];
export const WEIGHTS: Record<Kind, number> = { tables: 35, series: 20, explorer: 35, plugins: 10 };

/** Request paths by kind: what the load's clients draw from. */
export type Mix = Record<Kind, string[]>;

/** Rows sampled per parameterised route: that many different ids each. */
const SAMPLES = 8;
/** Not load: endless (the stream), static (the reference) or exempt from admission (metrics, status). */
const SKIPPED = /^\/(stream|docs|openapi\.json|metrics|explorer\/status)\b/;

type Op = {
  parameters?: Array<{ name: string; in: string; schema?: { enum?: unknown[] } }>;
  'x-tzidx-params-from'?: { table: string; columns: Record<string, string> };
};

/**
 * The paths the load asks for, all answering 200 on the indexed chain: every documented GET route
 * (OpenAPI) with path parameters from SAMPLES rows of the tables they name, plus tables and series with
 * limits and filters on ids that exist. A path that does not answer 200 here is left out and counted.
 */
export async function buildMix(t: TestInstance, seed: string): Promise<{ mix: Mix; dropped: string[] }> {
  const prng = Prng.derive('load-mix', seed);
  const doc = (await (await t.get('/openapi.json')).json()) as { paths: Record<string, { get?: Op }> };
  const candidates: string[] = [];
  for (const [template, { get: op }] of Object.entries(doc.paths)) {
    if (op && !SKIPPED.test(template)) candidates.push(...(await instances(t, template, op, prng)));
  }
  candidates.push(...(await queries(t)));
  const mix: Mix = { tables: [], series: [], explorer: [], plugins: [] };
  const dropped: string[] = [];
  for (const p of candidates) {
    const res = await t.get(p);
    await res.arrayBuffer();
    if (res.status === 200) mix[kindOf(p)].push(p);
    else dropped.push(`${p}: ${res.status}`);
  }
  return { mix, dropped };
}

function kindOf(p: string): Kind {
  const top = p.split('/')[1];
  return top === 'tables' || top === 'series' || top === 'explorer' ? top : 'plugins';
}

/** A route template with its path parameters filled from sampled rows (or enum values). */
async function instances(t: TestInstance, template: string, op: Op, prng: Prng): Promise<string[]> {
  const names = (op.parameters ?? []).filter((p) => p.in === 'path');
  if (names.length === 0) return [template];
  const source = op['x-tzidx-params-from'];
  const rows = source ? await sample(t, source.table, Object.values(source.columns), prng) : [{}];
  return rows.map((row) => {
    const values: Record<string, string> = {};
    if (source) Object.keys(source.columns).forEach((name, i) => (values[name] = String((row as unknown[])[i])));
    for (const p of names) values[p.name] ??= p.schema?.enum ? String(prng.pick(p.schema.enum)) : '';
    return template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n]));
  });
}

/** Up to SAMPLES rows of a table's newest 500 whose columns are all set. */
async function sample(t: TestInstance, table: string, columns: string[], prng: Prng): Promise<unknown[][]> {
  const rows = (
    (await (await t.get(`/tables/${table}?columns=${columns.join(',')}&limit=500&order=desc`)).json()) as unknown[][]
  ).filter((r) => r.every((v) => v !== null));
  return prng.shuffle(rows).slice(0, SAMPLES);
}

/** Tables and series as clients query them: limits, orders, time windows and filters on real ids. */
async function queries(t: TestInstance): Promise<string[]> {
  const ids = async (table: string, column: string, filter = ''): Promise<string[]> =>
    (
      (await (
        await t.get(`/tables/${table}?columns=${column}&limit=${SAMPLES}&order=desc${filter}`)
      ).json()) as unknown[][]
    ).map((r) => String(r[0]));
  const accounts = await ids('account', 'address', '&is_funded=1');
  const heights = await ids('block', 'height');
  const out: string[] = [];
  for (const a of accounts) {
    out.push(
      `/tables/op?sender=${a}&limit=100&order=desc`,
      `/tables/flow?address=${a}&limit=100`,
      `/tables/balance?address=${a}`,
    );
    out.push(`/series/balance?address=${a}&collapse=1h&limit=48`, `/series/flow?address=${a}&collapse=1d&limit=30`);
  }
  for (const h of heights)
    out.push(
      `/tables/op?height=${h}`,
      `/tables/block?columns=height,time,hash,n_ops_applied,volume&height.lte=${h}&limit=100&order=desc`,
    );
  out.push(
    '/tables/op?type=transaction&limit=500&order=desc',
    '/tables/op?time.gte=now-1h&columns=hash,type,sender,receiver,volume',
    '/tables/account?limit=100&order=desc',
  );
  for (const s of ['block', 'op', 'flow', 'chain', 'supply']) {
    out.push(
      `/series/${s}?collapse=5m&start_date=now-6h`,
      `/series/${s}?collapse=1h&limit=24`,
      `/series/${s}?collapse=1d&limit=30`,
    );
  }
  out.push('/series/op?collapse=1h&type=transaction&limit=24');
  return out;
}
