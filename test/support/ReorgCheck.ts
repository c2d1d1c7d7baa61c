import { expect } from 'chai';
import type { PluginClass } from '../../framework/plugins/Plugin';
import type { SandboxChain } from '../../framework/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { indexSandbox } from './IndexHarness';
import { startTestInstance, type TestInstance } from './TestInstance';

/**
 * Replaces the chain's last 3 blocks by 4 new ones, indexes the new branch on `t`, and expects each
 * table (these columns, `row_id` aside) to hold rows, the same as a clean run over the chain has them.
 */
export async function expectReorgMatchesClean(
  t: TestInstance,
  chain: SandboxChain,
  plugins: () => PluginClass[],
  tables: readonly (readonly [string, readonly string[]])[],
): Promise<void> {
  chain.reorg(3);
  chain.bake(4);
  await indexSandbox(t, chain);
  const clean = await startTestInstance({ plugins: plugins() });
  try {
    await indexSandbox(clean, chain);
    const strip = (rows: CsvRow[]) => rows.map(({ row_id: _r, ...rest }) => rest);
    for (const [table, cols] of tables) {
      const rows = strip(await readTable(t, table, cols));
      expect(rows.length, table).to.be.greaterThan(0);
      expect(rows, table).to.deep.equal(strip(await readTable(clean, table, cols)));
    }
  } finally {
    await clean.close();
  }
}
