import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { RpcTransport } from '../../framework/chain/rpc/RpcTransport';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { CraftedNode, deepMichelineText, transactionTo, type RawJson } from '../support/CraftedBlocks';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { send } from './support';

/**
 * Issue #51: values found on chain that no decoder expected (NUL bytes, invalid UTF-8, PACKed numbers,
 * binary hashes, empty URIs, ids past their column, Micheline 10,000 levels deep) go through the real
 * indexer path with every plugin: indexing goes on, later blocks are indexed, values are stored as
 * docs/metadata.md says, and what cannot be stored is counted.
 */
describe(`metadata: hostile chain values do not stop indexing (${BACKEND})`, function () {
  const DEPTH = 10_000;
  const HEAD = 30;
  const chain = new SandboxChain({ seed: 'metadata', profile: 'tiny' });
  chain.bakeTo(HEAD);
  const kusd = chain.contracts.kUSD.address;
  const dexCore = chain.knownContracts().find((c) => c.name === 'QuipuSwap v2 DexCore')!.address;
  // The blocks to edit: the first with an applied call of kUSD (from 3), the first after it with one of DexCore.
  const first = firstCallOf(kusd, 3);
  const second = firstCallOf(dexCore, first + 1);
  const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
  const huge = `1${'0'.repeat(400)}`;
  /** An address no sandbox contract has (hDAO's on mainnet), for the deep-typed origination. */
  const deepOrigin = 'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW';
  /** A big-map image hash (sha256 of nothing): binary, not text. */
  const imageHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  const elt = (key: string, bytes: string) => ({ prim: 'Elt', args: [{ string: key }, { bytes }] });
  /** A key change (its key hash is not checked by the indexer, only stored). */
  const keyHash = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
  const update = (key: unknown, value: unknown) => ({ key_hash: keyHash, key, value });
  const token = (id: string, info: unknown[]) => update({ int: id }, { prim: 'Pair', args: [{ int: id }, info] });
  const bigMapUpdates = (op: RawJson, id: number, updates: unknown[]): void => {
    const diff = { kind: 'big_map', id: String(id), diff: { action: 'update', updates } };
    ((op.metadata.operation_result.lazy_storage_diff ??= []) as unknown[]).push(diff);
  };
  /** A `/tables` answer's rows. */
  const rows = async (path: string): Promise<unknown[][]> =>
    (await send(t, 'GET', `/tables/${path}`)).json as unknown[][];
  let t: TestInstance;
  let tokenMap: number;
  let metadataMap: number;

  before(async function () {
    const config = { metadata: { resolver: { enabled: false } } };
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), config });
    // The blocks before the first edited one, then the metadata maps their originations gave.
    await index(new SandboxRpcTransport(chain), first - 1);
    const mapOf = async (contract: string, column: string) =>
      Number((await rows(`contract_metadata?contract=${contract}&columns=${column}`))[0][0]);
    tokenMap = await mapOf(kusd, 'token_map');
    metadataMap = await mapOf(dexCore, 'metadata_map');
    const node = new CraftedNode(
      chain,
      {
        [first]: (block) => {
          const op = transactionTo(block, kusd);
          bigMapUpdates(op, tokenMap, [
            token('0', [
              elt('decimals', '050000'),
              elt('name', hex('a\u0000b')),
              elt('symbol', 'ff00fe'),
              elt('thumbnailUri', imageHash),
              elt('', ''),
            ]),
            // PACK(Pair 1 "a"); PACK("ipfs") with a byte too many; PACK("ipfs://x").
            token('1', [
              elt('decimals', '0507070001010000000161'),
              elt('name', '0501000000046970667300'),
              elt('', `050100000008${hex('ipfs://x')}`),
            ]),
            token(huge, [elt('name', hex('too big'))]),
            update({ int: '7' }, { placeholder: 0 }),
          ]);
          op.parameters.value = { placeholder: 0 };
          op.metadata.operation_result.storage = { placeholder: 0 };
          // Ticket amounts are nats too: one past the `amount` column, one that fits.
          const ticket_token = { ticketer: kusd, content_type: { prim: 'nat' }, content: { int: '1' } };
          const updates = [huge, '5'].map((amount) => ({ account: op.source, amount }));
          op.metadata.operation_result.ticket_updates = [{ ticket_token, updates }];
          // A contract whose types are nested as deep (typed by the dispatcher, core-chain, bigmaps, metadata).
          (op.metadata.internal_operation_results ??= []).push(deepOrigination(kusd, deepOrigin));
          // An event of a type as deep (its hash is taken over the type without annotations).
          const result = { status: 'applied', consumed_milligas: '100' };
          const event = {
            kind: 'event',
            source: kusd,
            nonce: 78,
            tag: 'deep',
            type: { placeholder: 1 },
            payload: { placeholder: 0 },
          };
          op.metadata.internal_operation_results.push({ ...event, result });
        },
        [second]: (block) => {
          bigMapUpdates(transactionTo(block, dexCore), metadataMap, [update({ string: '' }, { bytes: '' })]);
        },
      },
      [deepMichelineText(DEPTH), deepMichelineText(DEPTH, 'option', '{"prim":"nat"}')],
    );
    await index(node, HEAD);
  });
  after(() => t?.close());

  const status = () => t.app.container.resolve(IndexerStatus);

  /**
   * The first level from `from` on whose block calls `contract`, applied (the chain's traffic is seeded, not fixed).
   */
  function firstCallOf(contract: string, from: number): number {
    for (let level = from; level < HEAD; level++) {
      const block = JSON.parse(chain.blockJson(chain.at(level)!)) as RawJson;
      const ops = (block.operations as RawJson[][]).flat().flatMap((g) => g.contents as RawJson[]);
      const applied = (c: RawJson) => c.metadata?.operation_result?.status === 'applied';
      if (ops.some((c) => c.kind === 'transaction' && c.destination === contract && applied(c))) return level;
    }
    throw new Error(`no call of ${contract} from level ${from} to ${HEAD}`);
  }

  async function index(node: RpcTransport, toLevel: number): Promise<void> {
    const source = new RpcBlockSource(node);
    try {
      await t.app.startIndexer(source, { retryDelayMs: 10, toLevel });
    } finally {
      await source.close();
    }
  }

  it('indexes every block after the hostile ones', () => {
    expect(status().status, status().lastError?.slice(-200)).to.not.equal('failed');
    expect(status().indexed).to.equal(HEAD);
  });

  it('stores token_info as documented: PACKed int as number, NUL and binary as hex, PACKed pair as JSON', async () => {
    const zero = await rows(`token?contract=${kusd}&token_id=0&columns=decimals,symbol,name,logo,uri,info`);
    // The real mainnet cases: decimals `050000` (tzgo: "0") and an image hash stored as hex.
    const name = hex('a\u0000b');
    const info = { decimals: '0', name, symbol: 'ff00fe', thumbnailUri: imageHash, '': '' };
    expect(zero).to.deep.equal([[0, 'ff00fe', name, imageHash, null, info]]);
    const one = await rows(`token?contract=${kusd}&token_id=1&columns=decimals,name,uri,info`);
    const pair = JSON.stringify({ prim: 'Pair', args: [{ int: '1' }, { string: 'a' }] });
    const notPacked = '0501000000046970667300';
    expect(one).to.deep.equal([[null, notPacked, 'ipfs://x', { decimals: pair, name: notPacked, '': 'ipfs://x' }]]);
    const token = (await send(t, 'GET', `/v1/tokens/${kusd}_0`)).json as Record<string, unknown>;
    expect(token).to.include({ decimals: 0, symbol: 'ff00fe' });
  });

  it('skips and counts a token id past the token table, and a token_metadata value that is no Pair', async () => {
    const ids = await rows(`token?contract=${kusd}&columns=token_id`);
    expect(ids.flat()).to.have.members(['0', '1', '7']);
    const counted = await undecodable();
    expect(counted).to.deep.include({ plugin: 'metadata', kind: 'token_id', value: 1 });
    expect(counted).to.deep.include({ plugin: 'metadata', kind: 'token_metadata', value: 1 });
    // As Prometheus reads it.
    const metrics = await (await t.get('/metrics')).text();
    expect(metrics).to.contain('tzidx_undecodable_values_total{plugin="metadata",kind="token_id"} 1\n');
  });

  it('stores Micheline 10,000 deep as binary (big map value, parameters; its storage stops nothing)', async () => {
    const binary = '0509'.repeat(DEPTH) + '0001';
    const updates = `bigmap_updates?bigmap_id=${tokenMap}&height=${first}&key_id.gt=0&columns=value&limit=1&order=desc`;
    expect(await rows(updates)).to.deep.equal([[binary]]);
    // The edited call is the one of the block's calls of kUSD whose parameters are the deep value.
    const calls = await rows(`op?height=${first}&receiver=${kusd}&columns=parameters`);
    expect(calls.filter(([p]) => p === binary)).to.have.length(1);
  });

  it('skips and counts a ticket amount past the ticket_update table, keeps the one beside it', async () => {
    expect(await rows(`ticket_update?height=${first}&ticketer=${kusd}&columns=amount`)).to.deep.equal([['5']]);
    expect(await undecodable()).to.deep.include({ plugin: 'core-chain', kind: 'ticket_amount', value: 1 });
  });

  it('registers the contract whose types are nested 10,000 deep, with its script', async () => {
    const [row, ...others] = await rows(`contract?address=${deepOrigin}&columns=address,first_seen,script`);
    expect([row.slice(0, 2), others]).to.deep.equal([[deepOrigin, first], []]);
    // code and storage, each 10,000 `option` levels (2 bytes each) deep, in the node's binary script form
    expect(String(row[2]).length).to.be.greaterThan(2 * 2 * 2 * DEPTH);
  });

  it('stores the event whose type is nested 10,000 deep', async () => {
    const events = await rows(`event?height=${first}&tag=deep&columns=contract,type_hash,payload`);
    expect(events.map(([contract, hash]) => [contract, typeof hash])).to.deep.equal([[kusd, 'string']]);
    expect(events[0][2]).to.equal('0509'.repeat(DEPTH) + '0001');
  });

  it('an empty TZIP-16 URI names no document: no uri, no error', async () => {
    const metadata = await rows(`contract_metadata?contract=${dexCore}&columns=uri,document,error,entries`);
    expect(metadata).to.deep.equal([[null, null, null, { '': '' }]]);
  });

  /** The counter's samples, `{plugin, kind, value}` each. */
  async function undecodable(): Promise<Array<{ plugin: unknown; kind: unknown; value: number }>> {
    const metric = status().registry.getSingleMetric('tzidx_undecodable_values_total');
    const values = (await metric?.get())?.values ?? [];
    return values.map((v) => ({ plugin: v.labels.plugin, kind: v.labels.kind, value: v.value }));
  }
});

/** An internal origination result of a contract whose parameter and storage types are placeholder 1. */
function deepOrigination(source: string, address: string): RawJson {
  const section = (prim: string) => ({ prim, args: [{ placeholder: 1 }] });
  return {
    kind: 'origination',
    source,
    nonce: 77,
    balance: '0',
    script: {
      code: [section('parameter'), section('storage'), { prim: 'code', args: [[{ prim: 'FAILWITH' }]] }],
      storage: { prim: 'None' },
    },
    result: {
      status: 'applied',
      originated_contracts: [address],
      consumed_milligas: '1000',
      storage_size: '100',
      paid_storage_size_diff: '100',
      balance_updates: [],
    },
  };
}
