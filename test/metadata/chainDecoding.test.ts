import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { expect } from 'chai';
import { BlockNormalizer } from '../../framework/chain';
import { type Entity, type EntityStore, metadataText } from '../../framework';
import { ChainMetadataIndexer, contractDocument, tokenFields } from '../../plugins/metadata/chain/ChainMetadataIndexer';
import { metadataLocation, tokenMetadataValue } from '../../plugins/metadata/chain/MetadataBytes';
import { readFixtureJson } from '../support/fixtures';

interface BigmapFixture {
  key: { string?: string; int?: string };
  value: unknown;
  want_key: string;
  want_value: unknown;
}
const entries = (file: string): BigmapFixture[] => readFixtureJson<BigmapFixture[]>('metadata', 'tzgo', file);

/** An EntityStore over a Map (the indexer's logic without a database). */
class MemoryStore implements EntityStore {
  readonly rows = new Map<string, Entity>();
  private nextId = 1n;
  constructor(private readonly key: string) {}
  async get(key: string): Promise<Entity | undefined> {
    return this.rows.get(key);
  }
  async preload(): Promise<void> {}
  insert(row: Record<string, unknown>): Entity {
    const e = { ...row, row_id: this.nextId++ } as Entity;
    this.rows.set(String(row[this.key]), e);
    return e;
  }
  update(entity: Entity, patch: Record<string, unknown>): void {
    Object.assign(entity, patch);
  }
  pending(): readonly Entity[] {
    return [...this.rows.values()];
  }
}

describe('metadata: on-chain TZIP-16/21 decoding of recorded mainnet big maps', () => {
  it('kUSD %metadata: tezos-storage:data resolves to the on-chain document', async () => {
    const map = entries('KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV-381.json');
    const stored: Record<string, string> = {};
    for (const e of map) {
      expect(e.key.string).to.equal(e.want_key);
      const hex = (e.value as { bytes: string }).bytes;
      expect(metadataText(hex)).to.equal(e.want_value);
      stored[e.key.string!] = hex;
    }
    const data = map.find((e) => e.want_key === 'data')!;
    const result = await contractDocument('KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV', stored, new MemoryStore('contract'));
    expect(result).to.deep.equal({
      uri: 'tezos-storage:data',
      document: JSON.parse(data.want_value as string),
      error: null,
    });
  });

  it('kUSD token_metadata: raw UTF-8 token_info, thumbnailUri with its leading space kept', () => {
    const [e] = entries('KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV-382.json');
    const want = e.want_value as { '0': string; '1': Record<string, string> };
    const decoded = tokenMetadataValue(e.value)!;
    expect(decoded.tokenId).to.equal(BigInt(want['0']));
    expect(decoded.info).to.deep.equal(want['1']);
    expect(want['1'].thumbnailUri.startsWith(' ')).to.equal(true);
    const fields = tokenFields(decoded.info);
    expect(fields).to.include({
      decimals: Number(want['1'].decimals),
      symbol: want['1'].symbol,
      name: want['1'].name,
      logo: want['1'].thumbnailUri.trim(),
      uri: null,
    });
  });

  it('hDAO %metadata: an ipfs:// URI for the resolver', () => {
    const [e] = entries('KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW-516.json');
    const uri = metadataText((e.value as { bytes: string }).bytes);
    expect(uri).to.equal(e.want_value);
    expect(metadataLocation(uri)).to.deep.equal({ kind: 'remote', uri: e.want_value });
  });

  it('hDAO token_metadata: a PACKed Micheline string holding the ipfs:// URI', () => {
    const [e] = entries('KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW-518.json');
    const want = e.want_value as { token_id: string; token_info: Record<string, string> };
    const raw = (e.value as { args: [unknown, Array<{ args: [unknown, { bytes: string }] }>] }).args[1][0].args[1]
      .bytes;
    expect(raw.startsWith('05')).to.equal(true);
    const decoded = tokenMetadataValue(e.value)!;
    expect(decoded.tokenId).to.equal(BigInt(want.token_id));
    expect(decoded.info).to.deep.equal(want.token_info);
    expect(tokenFields(decoded.info).uri).to.equal(want.token_info['']);
  });

  it('the recorded HEN mint updates OBJKT token_metadata (big map 514) into a token row', async () => {
    const contents = readFixtureJson<unknown[]>('metadata', 'mints', 'hen-mint-objkt.json');
    const { operations } = new BlockNormalizer().normalizeGroup({ contents });
    // The oracle, read by hand from the recording: the internal `mint` call's token id and its "" bytes.
    const internal = (
      contents[0] as {
        metadata: { internal_operation_results: Array<{ destination: string; parameters: { value: unknown } }> };
      }
    ).metadata.internal_operation_results[0];
    const objkt = internal.destination;
    const [, right] = pairArgs(internal.parameters.value);
    const [tokenId, info] = pairArgs(right);
    const elt = (info as unknown[])[0];
    const wantId = (tokenId as { int: string }).int;
    const wantUri = Buffer.from((elt as { args: [unknown, { bytes: string }] }).args[1].bytes, 'hex').toString('utf8');

    const contracts = new MemoryStore('contract');
    const tokens = new MemoryStore('token_key');
    // OBJKT was originated long before: its row says which big map is its token_metadata.
    contracts.insert({ contract: objkt, metadata_map: 515, token_map: 514, entries: {} });
    const indexer = new ChainMetadataIndexer(() => expect.fail('nothing in the recording is undecodable'));
    const block = { level: 1_400_000, time: Date.parse('2021-04-15T02:10:00Z') };
    for (const op of operations)
      if (op.status === 'applied')
        await indexer.operation(op, block, { contracts, tokens, types: async () => undefined });

    expect([...tokens.rows.keys()]).to.deep.equal([`${objkt}_${wantId}`]);
    const row = tokens.rows.get(`${objkt}_${wantId}`)!;
    expect(row).to.include({ contract: objkt, kind: 'fa2', uri: wantUri, first_height: block.level, decimals: null });
    expect(row.token_id).to.equal(BigInt(wantId));
    expect(wantUri.startsWith('ipfs://')).to.equal(true);
  });
});

describe('metadata: bytes that are no plain text (docs/metadata.md, the bytes → text rule)', () => {
  const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
  const packed = (value: unknown): string => packDataBytes(value as MichelsonData).bytes;

  it('reads PACKed values as tzgo: an int in decimal, a string, bytes by this rule, others as Micheline JSON', () => {
    // The mainnet case: `decimals` stored as PACK(0).
    expect(packed({ int: '0' })).to.equal('050000');
    expect(metadataText('050000')).to.equal('0');
    expect(metadataText(packed({ int: '-12345678901234567890' }))).to.equal('-12345678901234567890');
    expect(metadataText(packed({ string: 'ipfs://Qm' }))).to.equal('ipfs://Qm');
    expect(metadataText(packed({ bytes: hex('tz') }))).to.equal('tz');
    const pair = { prim: 'Pair', args: [{ int: '1' }, [{ string: 'a' }]] };
    expect(JSON.parse(metadataText(packed(pair)))).to.deep.equal(pair);
  });

  it('keeps as hex what is no text: NUL, control bytes, bad UTF-8, a binary hash, a PACKed string with NUL', () => {
    const imageHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const binary = [hex('a\u0000b'), 'ff00fe', 'c328', imageHash, packed({ string: 'a\u0000b' }), hex('bell\u0007')];
    for (const bytes of binary) {
      expect(metadataText(bytes), bytes).to.equal(bytes);
    }
    // Text with tabs and line breaks, and any script, is text.
    expect(metadataText(hex('line\n\ttab ünïcødé 🚀'))).to.equal('line\n\ttab ünïcødé 🚀');
  });

  it('takes bytes for PACKed only when the codec packs its reading back to the same bytes', () => {
    // `050000` followed by more: the codec reads 0 and ignores the rest; these are not PACK(0).
    expect(metadataText('050000ff')).to.equal('050000ff');
    // A declared string length past the end, and a `05` that starts plain text.
    expect(metadataText('0501000000ff61')).to.equal('0501000000ff61');
    expect(metadataText(hex('\u0005'))).to.equal('05');
    // Nested 10,000 deep: the codec gives up (its stack), the bytes stay hex instead of throwing.
    const deep = `05${'0509'.repeat(10_000)}0000`;
    expect(metadataText(deep)).to.equal(deep);
    expect(metadataText('')).to.equal('');
  });

  it('refuses a document jsonb cannot store (NUL, lone surrogates) with an error, never a failed batch', async () => {
    const contracts = new MemoryStore('contract');
    const kusd = 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV';
    const withDoc = (doc: string) => ({ '': hex('tezos-storage:d'), d: hex(doc) });
    for (const doc of ['{"name":"a\\u0000b"}', '{"a\\u0000":1}', '{"name":"\\ud800"}']) {
      const result = await contractDocument(kusd, withDoc(doc), contracts);
      expect(result, doc).to.deep.include({ uri: 'tezos-storage:d', document: null });
      expect(result.error, doc).to.match(/NUL character or an unpaired surrogate/);
    }
    // An escaped backslash before `u0000` is plain text, and a surrogate pair is one character.
    const fine = await contractDocument(kusd, withDoc('{"a":"\\\\u0000","b":"\\ud83d\\ude80"}'), contracts);
    expect(fine).to.deep.equal({ uri: 'tezos-storage:d', document: { a: '\\u0000', b: '🚀' }, error: null });
  });

  it('reads an empty or blank URI as no document, not as an error', async () => {
    for (const uri of ['', hex('  '), packed({ string: '' })]) {
      const contracts = new MemoryStore('contract');
      const result = await contractDocument('KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV', { '': uri }, contracts);
      expect(result, uri).to.deep.equal({ uri: null, document: null, error: null });
    }
  });
});

/** The two sides of a `Pair a b` value. */
function pairArgs(v: unknown): unknown[] {
  return (v as { args: unknown[] }).args;
}
