import { expect } from 'chai';
import { column, HandlerRegistry, PluginClass, PluginManifest, table } from '../../framework';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { RpcBlockSource } from '../../framework/chain';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { indexSandbox } from '../support/IndexHarness';
import { expectSameTables } from '../support/TableSnapshot';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, startTestInstance, TestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

/**
 * What happened, in order: batches opened, blocks handled (with the rows of blocks_seen they read), appended rows
 * written.
 */
const log: string[] = [];
/** The level whose strict_rows row lacks its non-null value (the database refuses it). */
const bad = { level: -1 };

@table('strict_rows', { kind: 'append', height_column: 'height' })
class StrictRows {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'int64' }) v!: number;
}

/** Logs each block, the rows of the probe's table it can read, and appends one strict row. */
class LogPlugin {
  static readonly manifest: PluginManifest = { name: 'log', dependsOn: ['probe'], tableClasses: [StrictRows] };
  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.blocksStart((blocks) => void log.push(`batch ${blocks[0].level}`));
    r.onBlock(async (block, ctx) => {
      const [{ n }] = await ctx.read('blocks_seen').count({ n: '*' });
      log.push(`block ${block.level} reads ${n}`);
      ctx.append('strict_rows', { height: block.level, ...(block.level === bad.level ? {} : { v: 1 }) });
    });
  }
}

const plugins = [ProbePlugin as unknown as PluginClass, LogPlugin as unknown as PluginClass];

@table('quiet_rows', { kind: 'append', height_column: 'height' })
class QuietRows {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
}

/** Handlers that never wait: each block appends a row and asks for a turn of the event loop, logged when it comes. */
class QuietPlugin {
  static readonly manifest: PluginManifest = { name: 'quiet', tableClasses: [QuietRows] };
  setup() {
    return {
      handlers: (r: HandlerRegistry) =>
        r.onBlock((block, ctx) => {
          log.push(`block ${block.level}`);
          setImmediate(() => log.push(`turn ${block.level}`));
          ctx.append('quiet_rows', { height: block.level });
        }),
    };
  }
}

describe(`indexer: appended rows written ahead while the batch goes on (${BACKEND})`, () => {
  const original = BulkWriter.prototype.append;
  let t: TestInstance;
  beforeEach(async () => {
    log.length = 0;
    bad.level = -1;
    BulkWriter.prototype.append = function (this: BulkWriter, ...args: Parameters<BulkWriter['append']>) {
      log.push(`write ${args[1].code}`);
      return original.apply(this, args);
    };
    t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
  });
  afterEach(async () => {
    BulkWriter.prototype.append = original;
    await t.close();
  });

  /** The log lines of the batch that handles `level`: from its start to the next batch's. */
  function batchOf(level: number): string[] {
    let start = log.findIndex((l) => l.startsWith(`block ${level} reads`));
    while (!log[start].startsWith('batch')) start--;
    const next = log.findIndex((l, i) => i > start && l.startsWith('batch'));
    return log.slice(start + 1, next < 0 ? log.length : next);
  }

  it('writes the rows of earlier blocks while later ones are handled (on Postgres); handlers read only what committed before the batch', async () => {
    const chain = new SandboxChain({ seed: 'write-ahead', profile: 'tiny' });
    chain.bake(20);
    // Batches of five final blocks (no journal); a write after every block that appends (two rows each).
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, writeAheadRows: 1 });
    const batch = batchOf(7);
    const blocks = batch.filter((l) => l.startsWith('block '));
    expect(blocks).to.have.length(5);
    const lastBlock = batch.indexOf(blocks[4]);
    const writtenAhead = batch.slice(batch.indexOf(blocks[0]), lastBlock).filter((l) => l.startsWith('write '));
    // The first write starts as block 2 opens, with the table appended first; how many more go before
    // the last block depends on how fast the server takes them (one write at a time).
    if (BACKEND === 'postgres') expect(writtenAhead).to.include('write blocks_seen');
    // PGlite runs in this thread with one connection: everything is written at the batch's end.
    else expect(writtenAhead).to.deep.equal([]);
    // Each block of the batch reads the same count: the rows committed by the earlier batches.
    const first = Number(blocks[0].split(' ')[1]);
    for (const b of blocks) expect(b).to.match(new RegExp(`reads ${first}$`));
    const res = await t.get('/tables/strict_rows?columns=height&limit=100');
    expect(((await res.json()) as unknown[]).length).to.equal(chain.headLevel + 1);
  });

  it('writes nothing ahead with writeAheadRows 0', async () => {
    const chain = new SandboxChain({ seed: 'write-ahead', profile: 'tiny' });
    chain.bake(12);
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, writeAheadRows: 0 });
    const batch = batchOf(7);
    const blocks = batch.filter((l) => l.startsWith('block '));
    expect(
      batch.slice(batch.indexOf(blocks[0]), batch.indexOf(blocks[4])).filter((l) => l.startsWith('write ')),
    ).to.deep.equal([]);
  });

  it('a write the database refuses fails its whole batch, which later blocks cannot hide; earlier batches stay', async () => {
    const chain = new SandboxChain({ seed: 'write-ahead', profile: 'tiny' });
    chain.bake(20);
    // Level 10 opens the third batch (0-4, 5-9, 10-14): its row is written while 11-14 are handled.
    bad.level = 10;
    await t.app.startIndexer(new RpcBlockSource(new SandboxRpcTransport(chain)), {
      toLevel: chain.headLevel,
      reorgDepth: 0,
      batchBlocks: 5,
      writeAheadRows: 1,
      retryDelayMs: 10,
    });
    const status = t.app.container.resolve(IndexerStatus);
    expect(status.status).to.equal('failed');
    expect(status.lastError).to.match(/blocks 10\.\.14 could not be indexed/);
    expect(status.indexed).to.equal(9);
    for (const code of ['blocks_seen', 'strict_rows']) {
      const heights = ((await (await t.get(`/tables/${code}?columns=height&limit=100`)).json()) as number[][]).map(
        (r) => r[0],
      );
      expect(Math.max(...heights), code).to.equal(9);
    }
    // Resumed without the bad row: the same tables as a run that never failed.
    bad.level = -1;
    await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 5, writeAheadRows: 1 });
    const clean = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins });
    try {
      await indexSandbox(clean, chain, { reorgDepth: 0, batchBlocks: 5, writeAheadRows: 0 });
      await expectSameTables(t, clean);
    } finally {
      await clean.close();
    }
  });
});

describe(`indexer: a write in progress goes on between blocks whose handlers never wait (${BACKEND})`, () => {
  it('gives the event loop turns between two blocks while a write is in progress, and only then', async () => {
    log.length = 0;
    const chain = new SandboxChain({ seed: 'write-ahead', profile: 'tiny' });
    chain.bake(12);
    const t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins: [QuietPlugin as unknown as PluginClass] });
    try {
      // Batches 0-5 and 6-11; from a batch's second block on, a write is in progress at each boundary.
      await indexSandbox(t, chain, { reorgDepth: 0, batchBlocks: 6, writeAheadRows: 1 });
    } finally {
      await t.close();
    }
    const at = (line: string): number => log.indexOf(line);
    for (let level = 6; level < 11; level++) {
      const between = log.slice(at(`block ${level}`), at(`block ${level + 1}`));
      expect(between[0]).to.equal(`block ${level}`);
      // Without the turns, the handlers' promises never leave the microtask queue: every turn comes
      // at the batch's end, when its flush waits on the database.
      if (BACKEND === 'postgres')
        expect(between, `between blocks ${level} and ${level + 1}`).to.include(`turn ${level}`);
      // PGlite writes nothing ahead: no turn is given between blocks.
      else
        expect(
          between.filter((l) => l.startsWith('turn ')),
          `between blocks ${level} and ${level + 1}`,
        ).to.deep.equal([]);
    }
  });
});

describe(`indexer: writing ahead leaves every built-in plugin's tables as writing at the batch end (${BACKEND})`, () => {
  it('indexes a mainnet-like chain to the same rows', async function () {
    // PGlite never writes ahead: both runs would be the same run.
    if (BACKEND !== 'postgres') this.skip();
    this.timeout(600_000);
    const chain = new SandboxChain({ seed: 'write-ahead-all', profile: 'mainnet-like' });
    chain.bake(20);
    const all = discoverPlugins([BUILTIN_PLUGIN_DIR]);
    const [ahead, atEnd] = [await startTestInstance({ plugins: all }), await startTestInstance({ plugins: all })];
    try {
      // Batches of five, the last blocks journaled (live), a write after every block that appends.
      await indexSandbox(ahead, chain, { reorgDepth: 8, batchBlocks: 5, writeAheadRows: 1 });
      await indexSandbox(atEnd, chain, { reorgDepth: 8, batchBlocks: 5, writeAheadRows: 0 });
      await expectSameTables(ahead, atEnd);
    } finally {
      await ahead.close();
      await atEnd.close();
    }
  });
});
