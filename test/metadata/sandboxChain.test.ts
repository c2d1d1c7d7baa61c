import { expect } from 'chai';
import { METADATA_IMPORT, MetadataImport } from '../../framework/extensions/MetadataImport';
import { ChainRollback } from '../../framework/indexer/ChainRollback';
import { SandboxChain } from '../../framework/sandbox';
import { demoMetadataEntries } from '../../framework/sandbox/DemoMetadata';
import { Fa12Token } from '../../framework/sandbox/contracts/Fa12Token';
import { indexSandbox } from '../support/IndexHarness';
import { TestInstance } from '../support/TestInstance';
import { BigmapsPlugin } from '../../plugins/bigmaps/plugin';
import { startTestInstance } from '../support/TestInstance';
import { PLUGINS, send } from './support';

describe('metadata: indexing the sandbox chain', () => {
  const chain = new SandboxChain({ seed: 'metadata', profile: 'tiny' });
  /** Every FA1.2 ledger the chain has: bootstrap tokens and those sandbox extensions add (LP tokens). */
  const ledgers = (): Fa12Token[] =>
    chain.contracts
      .known()
      .map((k) => chain.contracts.require(k.address))
      .filter((m): m is Fa12Token => m instanceof Fa12Token);
  let t: TestInstance;
  before(async () => {
    t = await startTestInstance({
      plugins: [...PLUGINS, BigmapsPlugin],
      config: { metadata: { resolver: { enabled: false } } },
    });
    chain.bakeTo(20);
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  it('registers every FA1.2 ledger with the token metadata of its token_metadata big map', async () => {
    // The oracle: the sandbox's own token models (symbol and decimals they were built with).
    const models = ledgers();
    expect(models.length).to.be.greaterThan(3);
    const tokens = (await send(t, 'GET', '/v1/tokens?limit=100')).json as Array<Record<string, unknown>>;
    expect(tokens.map((x) => x.ledger).sort()).to.deep.equal(models.map((m) => m.address).sort());
    for (const m of models) {
      const token = (await send(t, 'GET', `/v1/tokens/${m.address}_0`)).json as Record<string, unknown>;
      expect(token).to.include({
        ledger: m.address,
        token_id: '0',
        token_type: 'fa1.2',
        symbol: m.symbol,
        decimals: m.decimals,
        metadata_status: 'onchain',
      });
      const meta = (await send(t, 'GET', `/metadata/${m.address}/0`)).json as { tz21: Record<string, unknown> };
      expect(meta.tz21).to.include({ symbol: m.symbol, decimals: m.decimals });
    }
  });

  it('imports the demo aliases, validated, and shows them with meta=1 on blocks and contracts', async () => {
    const entries = demoMetadataEntries(chain);
    const imported = await t.app.container.resolve<MetadataImport>(METADATA_IMPORT)(entries, 'test');
    expect(imported).to.equal(chain.book.bakers.length + chain.knownContracts().length);
    // Protocol contracts carry the service their model declares: the chain has DEX pools, farms and lending markets.
    const kinds = new Map(entries.map((e) => [e.address, (e.alias as { kind: string }).kind]));
    for (const c of chain.knownContracts()) if (c.service) expect(kinds.get(c.address), c.name).to.equal(c.service);
    expect([...new Set(chain.knownContracts().map((c) => kinds.get(c.address)))]).to.include.members([
      'token',
      'dex',
      'farm',
      'lending',
    ]);
    const block = (await send(t, 'GET', '/explorer/block/head?meta=1')).json as {
      baker: string;
      metadata: Record<string, { alias: { kind: string } }>;
    };
    expect(Object.keys(block.metadata)).to.include(block.baker);
    expect(block.metadata[block.baker].alias.kind).to.equal('validator');
    const kusd = chain.contracts.kUSD.address;
    const contract = (await send(t, 'GET', `/explorer/contract/${kusd}?meta=1`)).json as {
      metadata: Record<string, { alias: { name: string } }>;
    };
    expect(contract.metadata[kusd].alias.name).to.equal('kUSD');
    const [[tokenMap]] = (await send(t, 'GET', `/tables/contract_metadata?contract=${kusd}&columns=token_map`))
      .json as number[][];
    const bigmap = (await send(t, 'GET', `/explorer/bigmap/${tokenMap}?meta=1`)).json as {
      contract: string;
      metadata: Record<string, { alias: { name: string } }>;
    };
    expect(bigmap.contract).to.equal(kusd);
    expect(bigmap.metadata[kusd].alias.name).to.equal('kUSD');
    // A bad import changes nothing and names the entry.
    await expectRejection(
      t.app.container.resolve<MetadataImport>(METADATA_IMPORT)([{ address: kusd, alias: { name: 'x' } }], 'bad.json'),
      /bad\.json: .*\/0\/alias\/kind is required/,
    );
  });

  // Runs last: it takes the indexed chain back.
  it('a rollback below the tokens takes back token and contract metadata rows, never API entries', async () => {
    const count = async (table: string): Promise<number> =>
      Number((await t.app.db.reader.withSchema('metadata').from(table).count({ n: '*' }))[0].n);
    const entries = await count('metadata');
    expect(entries).to.be.greaterThan(0);
    // Every FA1.2 ledger at least (FA2 LP tokens of the DEX models are tokens too).
    expect(await count('token')).to.be.at.least(ledgers().length);
    expect(await count('contract_metadata')).to.be.at.least(ledgers().length);
    // Every block of this short chain is within the reorg window, so the journal covers block 1.
    await t.app.db.writer.transaction((trx) => new ChainRollback(t.app.catalog).rollback(trx, 0));
    expect(await count('token')).to.equal(0);
    expect(await count('contract_metadata')).to.equal(0);
    expect(await count('metadata')).to.equal(entries);
    expect((await send(t, 'GET', '/v1/tokens')).json).to.deep.equal([]);
  });
});

async function expectRejection(p: Promise<unknown>, message: RegExp): Promise<void> {
  let error: unknown;
  await p.catch((e) => (error = e));
  expect((error as Error | undefined)?.message).to.match(message);
}
