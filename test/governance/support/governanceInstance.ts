import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { RawBlock } from '../../../framework/chain';
import type { IndexerOptions } from '../../../framework/indexer/Indexer';
import { IndexerStatus } from '../../../framework/indexer/IndexerStatus';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import type { SandboxRpcTransport } from '../../../framework/sandbox';
import type { Json } from '../../chain/support/Json';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';
import { MemoryBlockSource } from '../../support/IndexHarness';
import { startTestInstance, type TestInstance } from '../../support/TestInstance';
import type { ChainIds, ExpectedRow, ExpectedTables, NodeAsk } from './GovernanceOracle';

export const GOVERNANCE_TABLES = ['election', 'vote', 'proposal', 'ballot', 'voter'] as const;

/** An instance with only the plugins governance needs (core-chain and governance). */
export function startGovernanceInstance(): Promise<TestInstance> {
  const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter(
    (p) => p.manifest.name === 'core-chain' || p.manifest.name === 'governance',
  );
  return startTestInstance({ plugins });
}

/** Every column of a table, in catalog order. */
export function columnsOf(t: TestInstance, table: string): string[] {
  return t.app.catalog.table(table)!.columns.map((c) => c.name);
}

/** All five governance tables, every column, as CSV strings. */
export async function readGovernance(t: TestInstance): Promise<Record<string, CsvRow[]>> {
  const out: Record<string, CsvRow[]> = {};
  for (const table of GOVERNANCE_TABLES) out[table] = await readTable(t, table, columnsOf(t, table));
  return out;
}

/** Each governance table equals the expected rows, column by column, in row_id order. */
export async function expectTables(t: TestInstance, expected: ExpectedTables): Promise<void> {
  const actual = await readGovernance(t);
  for (const table of GOVERNANCE_TABLES) {
    const rows: ExpectedRow[] = expected[table];
    expect(actual[table].length, `${table} rows`).to.equal(rows.length);
    rows.forEach((row, i) => expect(actual[table][i], `${table} row ${row.row_id}`).to.deep.equal(row));
  }
}

/** Account row ids and op ids (the op table's `id`) of core-chain, which the governance rows reference. */
export async function chainIds(t: TestInstance): Promise<ChainIds> {
  const accounts = new Map((await readTable(t, 'account', ['address'])).map((r) => [r.address, r.row_id]));
  const ops = new Map((await readTable(t, 'op', ['hash', 'id'], 'type.in=proposal,ballot')).map((r) => [r.hash, r.id]));
  return { account: (address) => accounts.get(address) ?? '', op: (hash) => ops.get(hash) ?? '' };
}

/** The sandbox node as the oracle asks it. */
export function sandboxNode(transport: SandboxRpcTransport): NodeAsk {
  return async (level, path) => {
    const res = await transport.get(`/chains/main/blocks/${level}/${path}`);
    return res.status === 200 ? JSON.parse(res.body) : undefined;
  };
}

/** Recorded or rewritten blocks with a node behind them (what an RPC source over that node would be). */
class NodeBackedSource extends MemoryBlockSource {
  constructor(
    blocks: readonly RawBlock[],
    private readonly node: NodeAsk,
  ) {
    super(blocks);
  }
  blockRpc(level: number, path: string): Promise<unknown> {
    return this.node(level, path);
  }
}

/** Indexes the blocks in level order; `node` answers the handlers' `ctx.node` (none when omitted). */
export async function indexWithNode(
  t: TestInstance,
  blocks: readonly Json[],
  node?: NodeAsk,
  options: Partial<IndexerOptions> = {},
): Promise<void> {
  const raw = blocks as unknown as RawBlock[];
  const source = node ? new NodeBackedSource(raw, node) : new MemoryBlockSource(raw);
  await t.app.startIndexer(source, { retryDelayMs: 10, reorgDepth: 8, batchBlocks: 50, ...options });
  const status = t.app.container.resolve(IndexerStatus);
  if (status.status === 'failed') throw new Error(`indexing failed: ${status.lastError}`);
}
