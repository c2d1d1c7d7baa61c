import { expect } from 'chai';
import type { Entity, IndexContext } from '../../framework';
import { FarmRecorder } from '../../plugins/defi-farm/core/FarmRecorder';
import { LendingRecorder } from '../../plugins/defi-lending/core/LendingRecorder';

/**
 * Why: a farm or lending market names as creator the signer of its creation when the adapter saw it,
 * else the contract's originator from core-chain's `contract` row, and null (never "") when neither is
 * known (contracts created at genesis). The recorders run here over in-memory entity stores, the
 * `contract` rows set by the test as core-chain would write them.
 */

const ORIGINATOR = 'tz1burnburnburnburnburnburnburjAYjjX';
const SIGNER = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
const ORIGINATED = 'KT1TMfRfmJ5mkJEXZGRCsqLHn2rgnV1SdUzb';
const GENESIS = 'KT1Kvg5eJVuYfTC1bU1bwWyn4e1PRGKAf6sy';
const UNSEEN = 'KT1KNbtEBKumoZoyp5uq6A4v3ETN7boJ9ArF';
const TOKEN = { standard: 'fa1.2', contract: 'KT1GWnsoFZVHGh7roXEER3qeCcgJgrXT3de2' } as const;

/** Entity stores over maps, keyed by table code; `contract` holds the given rows. */
type Rows = (table: string) => Map<string, Entity>;

function context(contracts: Record<string, string | null>): { ctx: IndexContext; rows: Rows } {
  const tables = new Map<string, Map<string, Entity>>();
  const rows = (table: string) => tables.get(table) ?? tables.set(table, new Map()).get(table)!;
  let next = 1n;
  for (const [address, creator] of Object.entries(contracts)) {
    rows('contract').set(address, { address, creator, row_id: next++ });
  }
  const entities = (table: string | { code: string }, key: string) => {
    const map = rows(typeof table === 'string' ? table : table.code);
    return {
      get: async (k: string) => map.get(k),
      insert: (row: Record<string, unknown>) => {
        const e = { ...row, row_id: next++ } as Entity;
        map.set(String(row[key]), e);
        return e;
      },
      update: (e: Entity, patch: Record<string, unknown>) => void Object.assign(e, patch),
    };
  };
  const ctx = { block: { level: 7, time: Date.UTC(2024, 0, 1) }, entities } as unknown as IndexContext;
  return { ctx, rows };
}

const BLANK = 'KT1XnTn74bUtxHfDtBmm2bGZAQfhPbvKWR8o';
/** Contract, pool id, signer the adapter saw, creator expected. */
const CASES: Array<[string, number, string | undefined, string | null]> = [
  [ORIGINATED, 0, SIGNER, SIGNER],
  [ORIGINATED, 1, undefined, ORIGINATOR],
  [GENESIS, 0, undefined, null],
  [BLANK, 0, undefined, null],
  [UNSEEN, 0, undefined, null],
];
const CONTRACTS = { [ORIGINATED]: ORIGINATOR, [GENESIS]: null, [BLANK]: '' };

describe('defi-farm, defi-lending: the creator of a farm or market', () => {
  it('farms: the creation signer, else the originator, else null', async () => {
    const { ctx, rows } = context(CONTRACTS);
    const recorder = new FarmRecorder();
    const supply = { totalStake: 0n, remainingRewards: null };
    for (const [contract, poolId, creator] of CASES) {
      const decl = { contract, poolId, entity: 'plenty', stake: TOKEN, reward: TOKEN, creator };
      await recorder.farm(ctx, decl, supply);
    }
    const creators = [...rows('farm_pool').values()].map((r) => [r.pool, r.creator]);
    expect(creators).to.deep.equal(CASES.map(([c, id, , want]) => [`${c}_${id}`, want]));
  });

  it('lending markets: the creation signer, else the originator, else null', async () => {
    const { ctx, rows } = context(CONTRACTS);
    const recorder = new LendingRecorder();
    const totals = { totalCollateral: 0n, totalDebt: 0n };
    const collateral = { standard: 'tez' } as const;
    for (const [contract, poolId, creator] of CASES) {
      const decl = { contract, poolId, entity: 'yupana', debt: TOKEN, collateral, creator };
      await recorder.market(ctx, decl, totals);
    }
    const creators = [...rows('lend_pool').values()].map((r) => [r.pool, r.creator]);
    expect(creators).to.deep.equal(CASES.map(([c, id, , want]) => [`${c}_${id}`, want]));
  });
});
