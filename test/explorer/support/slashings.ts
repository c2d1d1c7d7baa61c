// Why: what the sandbox's RPC JSON says each Oxford+ denunciation cost at its cycle end (the oracle of
// the delayed-slashing tests), and the checks of /tables/op, /tables/flow and /series/op against it.
import { expect } from 'chai';
import type { SandboxChain } from '../../../framework/sandbox';
import type { Json } from '../../chain/support/Json';
import type { TestInstance } from '../../support/TestInstance';
import { getJson, Obj } from './api';
import { tezToMutezNumber } from './rawOperations';

export const DENUNCIATION_TYPES = 'type.in=double_baking,double_endorsement,double_preendorsement';

export interface Denunciation {
  hash: string;
  level: number;
  offender: string;
  accuser: string;
}

export interface Slashing {
  /** The accuser's credit. */
  reward: bigint;
  /** The freezer debits. */
  lost: bigint;
  /** Contract and freezer entries: one flow each. */
  entries: number;
  level: number;
}

/** The main chain's blocks as the node's JSON, level 1 to the head. */
export function chainBlocks(chain: SandboxChain): Json[] {
  const out: Json[] = [];
  for (let level = 1; level <= chain.headLevel; level++) {
    out.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Json);
  }
  return out;
}

/** The offender's debits and the accuser's credits that the block receipts list for each denunciation. */
export function slashingsOf(blocks: readonly Json[]): Map<string, Slashing> {
  const out = new Map<string, Slashing>();
  for (const block of blocks)
    for (const u of block.metadata.balance_updates as Json[]) {
      if (u.origin !== 'delayed_operation') continue;
      const s = out.get(u.delayed_operation_hash) ?? { reward: 0n, lost: 0n, entries: 0, level: block.header.level };
      const change = BigInt(u.change);
      if (u.kind === 'contract' && change > 0n) s.reward += change;
      if (u.kind === 'freezer' && change < 0n) s.lost -= change;
      if (u.kind === 'contract' || u.kind === 'freezer') s.entries++;
      out.set(u.delayed_operation_hash, s);
    }
  return out;
}

export function denunciationsOf(blocks: readonly Json[]): Denunciation[] {
  const out: Denunciation[] = [];
  for (const block of blocks)
    for (const group of (block.operations as Json[][]).flat())
      for (const c of group.contents as Json[]) {
        if (!String(c.kind).startsWith('double_')) continue;
        const { punished_delegate: offender, rewarded_delegate: accuser } = c.metadata;
        out.push({ hash: group.hash, level: block.header.level, offender, accuser });
      }
  return out;
}

/** An op row or object shows the slashing: accuser reward as volume, offender losses as negative deposit. */
export function expectAmounts(o: Obj, d: Denunciation, s: Slashing | undefined): void {
  expect(tezToMutezNumber(o.volume), `${d.hash} volume`).to.equal(s?.reward ?? 0n);
  expect(tezToMutezNumber(o.deposit), `${d.hash} deposit`).to.equal(-(s?.lost ?? 0n));
  expect(tezToMutezNumber(o.fee), `${d.hash} fee`).to.equal(0n);
  expect(tezToMutezNumber(o.reward), `${d.hash} reward`).to.equal(0n);
}

/** /tables/op rows of the denunciations hold their slashing's figures (0 before it). */
export async function expectOpRows(
  t: TestInstance,
  ds: readonly Denunciation[],
  slashings: Map<string, Slashing>,
): Promise<void> {
  const rows = await getJson<unknown[][]>(t, `/tables/op?columns=hash,volume,fee,reward,deposit&${DENUNCIATION_TYPES}`);
  expect(rows.map((r) => r[0]).sort()).to.deep.equal(ds.map((d) => d.hash).sort());
  for (const d of ds) {
    const [, volume, fee, reward, deposit] = rows.find((r) => r[0] === d.hash)!;
    expectAmounts({ volume, fee, reward, deposit }, d, slashings.get(d.hash));
  }
}

/** Each slashing flow names its denunciation's op row: one per receipt entry, at the slashing block. */
export async function expectFlowLinks(
  t: TestInstance,
  ds: readonly Denunciation[],
  slashings: Map<string, Slashing>,
): Promise<void> {
  for (const d of ds) {
    const [[rowId]] = await getJson<unknown[][]>(t, `/tables/op?columns=row_id&hash=${d.hash}`);
    const columns = 'height,operation,category,amount_in,amount_out';
    const flows = await getJson<unknown[][]>(t, `/tables/flow?columns=${columns}&delayed_op_id=${rowId}`);
    const s = slashings.get(d.hash);
    expect(flows.length, `${d.hash} flows`).to.equal(s?.entries ?? 0);
    const sum = (rows: unknown[][], i: number): bigint => rows.reduce((n, r) => n + tezToMutezNumber(r[i]), 0n);
    expect(
      flows.every((f) => f[0] === s?.level && f[1] === 'penalty'),
      `${d.hash} flows`,
    ).to.equal(true);
    expect(sum(flows, 3), `${d.hash} credits`).to.equal(s?.reward ?? 0n);
    expect(
      sum(
        flows.filter((f) => f[2] !== 'balance'),
        4,
      ),
      `${d.hash} freezer debits`,
    ).to.equal(s?.lost ?? 0n);
  }
}

/** /series/op from its rollups (no filter) sums what /tables/op lists, denunciation figures included. */
export async function expectOpSeries(t: TestInstance): Promise<void> {
  const times = await getJson<number[][]>(t, '/tables/block?columns=time&is_orphan=0&limit=50000');
  const [from, to] = [times[0][0], times[times.length - 1][0]];
  const dates = `start_date=${new Date(from).toISOString()}&end_date=${new Date(to).toISOString()}`;
  const res = await t.get(`/series/op?collapse=1d&columns=volume,fee,reward,deposit&${dates}&limit=50000`);
  expect(res.headers.get('x-series-source')).to.match(/^rollup:1d$/);
  const buckets = (await res.json()) as number[][];
  const table = `/tables/op?columns=volume,fee,reward,deposit&time.rg=${from},${to}&limit=50000`;
  const rows = await getJson<number[][]>(t, table);
  const total = (list: number[][], i: number): bigint => list.reduce((n, r) => n + tezToMutezNumber(r[i]), 0n);
  for (let i = 0; i < 4; i++) expect(total(buckets, i + 1), `series column ${i}`).to.equal(total(rows, i));
}
