import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../framework';
import { loadMetadataSettings } from '../../plugins/metadata/MetadataSettings';
import { SchemaRegistry } from '../../plugins/metadata/SchemaRegistry';

function schemaDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-schemas-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const badRequest = (fn: () => void): string => {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(ApiError);
    expect((e as ApiError).status).to.equal(400);
    return (e as ApiError).detail;
  }
  throw new Error('expected a 400');
};

describe('metadata: schemas', () => {
  it('loads custom schemas (draft-07 and 2019-09) next to the predefined ones and validates with them', () => {
    const dir = schemaDir({
      'shop.json': JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        required: ['url'],
        properties: { url: { type: 'string', format: 'uri' } },
      }),
      'team.json': JSON.stringify({
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
      }),
    });
    const r = new SchemaRegistry(dir);
    expect(r.names()).to.include.members(['shop', 'team', 'alias', 'tz16', 'tz21']);
    r.validate({ address: 'tz1', shop: { url: 'https://shop.example' }, team: ['a'] });
    expect(badRequest(() => r.validate({ address: 'tz1', shop: { url: 'not a uri' } }))).to.contain('/shop/url');
    expect(badRequest(() => r.validate({ address: 'tz1', team: [] }))).to.contain('/team');
  });

  it('stops the start-up with a message naming the file for bad custom schemas', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ 'broken.json': '{"type": ' }, /broken\.json: not JSON/],
      [{ 'wrong.json': JSON.stringify({ type: 'nonsense' }) }, /wrong\.json is not a valid JSON Schema/],
      [
        { 'new.json': JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema' }) },
        /new\.json: unsupported \$schema/,
      ],
      [{ 'alias.json': JSON.stringify({ type: 'object' }) }, /schema 'alias' exists already/],
      [{ 'two words.json': JSON.stringify({ type: 'object' }) }, /without whitespace/],
    ];
    for (const [files, message] of cases) expect(() => new SchemaRegistry(schemaDir(files))).to.throw(message);
  });

  it('predefined schemas check the original fields', () => {
    const r = new SchemaRegistry();
    r.validate({
      address: 'tz1',
      alias: { name: 'A', kind: 'exchange' },
      baker: { status: 'public', fee: 0.1 },
      payout: ['tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq'],
    });
    expect(badRequest(() => r.validate({ address: 'tz1', location: { lat: 91 } }))).to.contain('/location/lat');
    expect(badRequest(() => r.validate({ address: 'tz1', payout: [] }))).to.contain('/payout');
    expect(
      badRequest(() =>
        r.validate({
          address: 'tz1',
          domain: { records: [{ address: 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq', name: 'x.tez' }] },
        }),
      ),
    ).to.contain('/domain/records/0/owner is required');
  });
});

describe('metadata: settings', () => {
  it('keeps API keys only as SHA-256 digests, from the file (plain or sha256:) and the environment', () => {
    const s = loadMetadataSettings(
      { writes: true, api_keys: ['file-key', `sha256:${'ab'.repeat(32)}`] },
      { TZIDX_METADATA_API_KEYS: 'env-key' },
    );
    expect(s.writes).to.equal(true);
    // SHA-256 of the UTF-8 keys, as `printf file-key | sha256sum` prints them.
    const fileKey = 'a0cc538968c3de95e887314617b79289de0f999e78c8f7eef949463a96055b52';
    const envKey = 'ea2ca068cc76504202f55df63b78b8dfddb54438a206702c2623d1828b2c1356';
    expect(s.keyDigests.map((d) => d.toString('hex'))).to.deep.equal([fileKey, 'ab'.repeat(32), envKey]);
    expect(JSON.stringify(s)).not.to.contain('file-key');
    expect(JSON.stringify(s)).not.to.contain('env-key');
  });

  it('is read-only by default and rejects unknown keys', () => {
    expect(loadMetadataSettings(undefined, {}).writes).to.equal(false);
    expect(() => loadMetadataSettings({ write: true }, {})).to.throw(/config key metadata/);
  });
});
