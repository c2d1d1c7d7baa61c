import { expect } from 'chai';
import type { BlocksStartContext, NormalizedBlock, NormalizedOperation } from '../../framework';
import { MAX_KEYS_PER_CONTRACT, readAheadPositions } from '../../framework/defi/PositionReadAhead';
import { tables } from '../../plugins/defi-dex/tables.generated';

const DEX = 'KT1DexDexDexDexDexDexDexDexDexDexDex';
const CORE = 'KT1CoreCoreCoreCoreCoreCoreCoreCore';
const OTHER = 'KT1OtherOtherOtherOtherOtherOtherOt';

function call(receiver: string, source: string, extra: Partial<NormalizedOperation> = {}): NormalizedOperation {
  return { status: 'applied', type: 'transaction', receiver, source, sender: source, ...extra } as NormalizedOperation;
}

/** A batch-start context over a fixed pool table: what was read and what was preloaded. */
function context(pools: { pool: string; contract: string }[]) {
  const reads: unknown[][] = [];
  const preloads: Record<string, string[]> = {};
  const ctx = {
    read: () => ({
      whereIn: (column: string, values: string[]) => {
        reads.push([column, [...values].sort()]);
        return { select: async () => pools.filter((p) => values.includes(p.contract)) };
      },
    }),
    preload: async (table: { code: string }, key: string, keys: Iterable<string>) => {
      preloads[`${table.code}.${key}`] = [...keys].sort();
    },
  } as unknown as BlocksStartContext;
  return { ctx, reads, preloads };
}

const block = (operations: NormalizedOperation[]) => ({ operations }) as NormalizedBlock;
const positions = { pools: tables.dex_pool, positions: tables.dex_position };

describe('defi: positions read ahead at a batch start', () => {
  it('reads the pools of the called contracts and the positions of their signers and senders', async () => {
    const { ctx, reads, preloads } = context([
      { pool: `${DEX}_0`, contract: DEX },
      { pool: `${DEX}_1`, contract: DEX },
    ]);
    await readAheadPositions(
      [
        block([
          call(DEX, 'tz1alice'),
          call(DEX, 'tz1bob', { status: 'failed' }),
          call('tz1carol', 'tz1bob'),
          call(OTHER, 'tz1dave'),
        ]),
        // An internal call: the router sent it, the signer is the group's source.
        block([
          call(DEX, 'tz1erin', { sender: 'KT1Router', isInternal: true }),
          { ...call(DEX, 'tz1frank'), type: 'delegation' } as NormalizedOperation,
        ]),
      ],
      ctx,
      positions,
    );
    expect(reads).to.deep.equal([['contract', [DEX, OTHER]]]);
    expect(preloads['dex_pool.pool']).to.deep.equal([`${DEX}_0`, `${DEX}_1`]);
    const callers = ['KT1Router', 'tz1alice', 'tz1erin'];
    expect(preloads['dex_position.position']).to.deep.equal(
      [0, 1].flatMap((i) => callers.map((c) => `${DEX}_${i}:${c}`)).sort(),
    );
  });

  it('leaves a contract of many pools and many callers to lookups, and still reads the others', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ pool: `${CORE}_${i}`, contract: CORE }));
    const { ctx, preloads } = context([...many, { pool: `${DEX}_0`, contract: DEX }]);
    const callers = Array.from({ length: MAX_KEYS_PER_CONTRACT / 100 + 1 }, (_, i) => `tz1caller${i}`);
    await readAheadPositions([block([...callers.map((c) => call(CORE, c)), call(DEX, 'tz1alice')])], ctx, positions);
    expect(preloads['dex_pool.pool']).to.have.length(101);
    expect(preloads['dex_position.position']).to.deep.equal([`${DEX}_0:tz1alice`]);
  });

  it('reads nothing for a batch without applied contract calls', async () => {
    const { ctx, reads, preloads } = context([{ pool: `${DEX}_0`, contract: DEX }]);
    await readAheadPositions(
      [block([call('tz1carol', 'tz1bob'), call(DEX, 'tz1bob', { status: 'backtracked' })])],
      ctx,
      positions,
    );
    expect(reads).to.deep.equal([]);
    expect(preloads).to.deep.equal({});
  });
});
