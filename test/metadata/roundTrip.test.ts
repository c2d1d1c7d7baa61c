import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TzidxApp } from '../../framework/app/TzidxApp';
import { DEFAULTS, InstanceConfig } from '../../framework/config/InstanceConfig';
import { silentLogger } from '../../framework/util/Logger';
import { createTestDatabase } from '../support/TestDatabase';
import { TestInstance } from '../support/TestInstance';
import { bearer, firstError, GOOD_KEY, metadataInstance, PLUGINS, send } from './support';

const auth = bearer(GOOD_KEY);

describe('metadata: create → read → meta=1 → update → delete → purge', () => {
  let t: TestInstance;
  let baker: string;
  before(async () => {
    t = await metadataInstance({ writes: true, api_keys: [GOOD_KEY], max_body_bytes: 4096 });
    // An account the explorer knows: core-chain's account table, written like the indexer would.
    baker = 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq';
  });
  after(() => t?.close());

  it('runs the whole life of an entry', async () => {
    const entry = {
      address: baker,
      alias: { name: 'Round Trip', kind: 'validator' },
      baker: { status: 'public', fee: 0.1 },
    };
    const created = await send(t, 'POST', '/metadata', [entry], auth);
    expect(created.status).to.equal(201);
    expect(created.json).to.deep.equal([entry]);

    expect((await send(t, 'GET', `/metadata/${baker}`)).json).to.deep.equal(entry);
    expect((await send(t, 'GET', '/metadata?kind=validator')).json).to.deep.equal([entry]);
    expect((await send(t, 'GET', '/metadata?kind=token')).json).to.deep.equal([]);
    expect((await send(t, 'GET', '/metadata?short=1')).json).to.deep.equal([entry]);

    // PUT replaces the content: the baker namespace goes.
    const replaced = { alias: { name: 'Renamed', kind: 'validator' }, social: { twitter: 'rt' } };
    const put = await send(t, 'PUT', `/metadata/${baker}`, replaced, auth);
    expect(put.status).to.equal(200);
    expect(put.json).to.deep.equal({ address: baker, ...replaced });
    expect((await send(t, 'GET', `/metadata/${baker}`)).json).to.deep.equal({ address: baker, ...replaced });

    // A token entry, in both path forms.
    const token = { alias: { name: 'Token 7', kind: 'token' }, asset: { standard: 'fa2', symbol: 'T7', decimals: 6 } };
    expect((await send(t, 'PUT', `/metadata/${baker}_7`, token, auth)).status).to.equal(200);
    expect((await send(t, 'GET', `/metadata/${baker}/7`)).json).to.deep.equal({
      address: baker,
      asset_id: 7,
      ...token,
    });
    expect((await send(t, 'GET', `/metadata/${baker}_7`)).json).to.deep.equal({
      address: baker,
      asset_id: 7,
      ...token,
    });

    expect((await send(t, 'DELETE', `/metadata/${baker}/7`, undefined, auth)).status).to.equal(204);
    expect((await send(t, 'GET', `/metadata/${baker}/7`)).status).to.equal(404);
    expect((await send(t, 'DELETE', `/metadata/${baker}/7`, undefined, auth)).status).to.equal(404);

    expect((await send(t, 'DELETE', '/metadata', undefined, auth)).status).to.equal(204);
    expect((await send(t, 'GET', '/metadata')).json).to.deep.equal([]);
    const gone = await send(t, 'GET', `/metadata/${baker}`);
    expect(gone.status).to.equal(404);
    expect(firstError(gone.json).detail).to.equal('no such metadata entry');
  });

  it('embeds entries in explorer objects with meta=1', async () => {
    await t.insert('account', [accountRow(t, baker)]);
    const entry = { address: baker, alias: { name: 'Meta Baker', kind: 'validator' } };
    await send(t, 'POST', '/metadata', [entry], auth);
    const withMeta = (await send(t, 'GET', `/explorer/account/${baker}?meta=1`)).json as { metadata: unknown };
    expect(withMeta.metadata).to.deep.equal({ [baker]: entry });
    const without = (await send(t, 'GET', `/explorer/account/${baker}`)).json as Record<string, unknown>;
    expect(without).not.to.have.property('metadata');
    await send(t, 'DELETE', `/metadata/${baker}`, undefined, auth);
    expect(
      ((await send(t, 'GET', `/explorer/account/${baker}?meta=1`)).json as { metadata: unknown }).metadata,
    ).to.deep.equal({});
  });

  it('names the failing JSON path of an invalid body', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ address: baker, alias: { name: 'x', kind: 'wizard' } }], '/0/alias/kind'],
      [
        [
          { address: baker, alias: { name: 'ok', kind: 'user' } },
          { address: baker, baker: { fee: 0.1 } },
        ],
        '/1/baker/status',
      ],
      [[{ address: baker, asset: { standard: 'fa2', symbol: 'S', decimals: 99 } }], '/0/asset/decimals'],
      [[{ address: baker, unknown_ns: {} }], '/0/unknown_ns'],
      [[{ address: 'tz1nope' }], '/0/address'],
    ];
    for (const [body, where] of cases) {
      const r = await send(t, 'POST', '/metadata', body, auth);
      expect(r.status, where).to.equal(400);
      expect(firstError(r.json).code).to.equal(1007);
      expect(firstError(r.json).detail).to.contain(where);
    }
    // Nothing of a failed request is stored.
    expect((await send(t, 'GET', '/metadata')).json).to.deep.equal([]);
  });

  it('refuses an address with a bad checksum on every write; deletes a row stored so before by its text', async () => {
    const bad = 'tz1111111111111111111111111111111111';
    expect(bad).to.match(/^tz1[1-9A-HJ-NP-Za-km-z]{33}$/); // the right shape: only the checksum is wrong
    const post = await send(t, 'POST', '/metadata', [{ address: bad, alias: { name: 'x', kind: 'user' } }], auth);
    expect(post.status).to.equal(400);
    expect(firstError(post.json)).to.include({ code: 1007 });
    expect(firstError(post.json).detail).to.contain('/0/address');
    const put = await send(t, 'PUT', `/metadata/${bad}`, { alias: { name: 'x', kind: 'user' } }, auth);
    expect(put.status).to.equal(400);
    expect((await send(t, 'GET', '/metadata')).json).to.deep.equal([]);
    // A row an earlier version let in: written as that version's API did.
    const content = { alias: { name: 'x', kind: 'user' } };
    const row = { row_id: 99, address: bad, asset_id: null, entry_key: bad, content, updated_time: new Date() };
    await t.app.db.writer.withSchema('metadata').table('metadata').insert(row);
    expect((await send(t, 'GET', '/metadata')).json).to.have.length(1);
    expect((await send(t, 'DELETE', `/metadata/${bad}`, undefined, auth)).status).to.equal(204);
    expect((await send(t, 'GET', '/metadata')).json).to.deep.equal([]);
    // Gone, it is a malformed address again (400), while a valid one that names nothing is 404.
    const again = await send(t, 'DELETE', `/metadata/${bad}`, undefined, auth);
    expect(again.status).to.equal(400);
    expect(firstError(again.json).detail).to.equal(`invalid address '${bad}'`);
    expect((await send(t, 'DELETE', `/metadata/${baker}`, undefined, auth)).status).to.equal(404);
  });

  it('answers 413 for bodies over the limit and 400 for bodies that are not JSON', async () => {
    const big = [{ address: baker, alias: { name: 'x'.repeat(5000), kind: 'user' } }];
    const r = await send(t, 'POST', '/metadata', big, auth);
    expect(r.status).to.equal(413);
    expect(firstError(r.json).status).to.equal(413);
    const bad = await send(t, 'POST', '/metadata', '[{"address":', auth);
    expect(bad.status).to.equal(400);
    expect(firstError(bad.json).detail).to.contain('not valid JSON');
  });

  it('serves the schemas', async () => {
    const names = (await send(t, 'GET', '/metadata/schemas')).json as string[];
    expect(names).to.deep.equal([
      'alias',
      'asset',
      'baker',
      'domain',
      'location',
      'media',
      'payout',
      'rights',
      'social',
      'tz16',
      'tz21',
      'updated',
    ]);
    const alias = (await send(t, 'GET', '/metadata/schemas/alias')).json as { required: string[] };
    expect(alias.required).to.deep.equal(['name', 'kind']);
    const missing = await send(t, 'GET', '/metadata/schemas/nope');
    expect(missing.status).to.equal(404);
    expect(firstError(missing.json).detail).to.equal('schema not found');
  });
});

describe('metadata: restart', () => {
  it('keeps written entries across a restart', async () => {
    const db = await createTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-md-'));
    const config: InstanceConfig = {
      ...DEFAULTS,
      dataDir: dir,
      databaseUrl: db.url,
      metadata: { writes: true, api_keys: [GOOD_KEY], resolver: { enabled: false } },
    };
    const entry = { address: 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq', alias: { name: 'Survivor', kind: 'user' } };
    try {
      let app = await TzidxApp.create(config, { log: silentLogger, available: PLUGINS });
      let { url } = await app.api.listen(0, '127.0.0.1');
      const posted = await fetch(`${url}/metadata`, {
        method: 'POST',
        headers: { ...bearer(GOOD_KEY), 'content-type': 'application/json' },
        body: JSON.stringify([entry]),
      });
      expect(posted.status).to.equal(201);
      await app.close();
      app = await TzidxApp.create(config, { log: silentLogger, available: PLUGINS });
      ({ url } = await app.api.listen(0, '127.0.0.1'));
      expect(await (await fetch(`${url}/metadata/${entry.address}`)).json()).to.deep.equal(entry);
      await app.close();
    } finally {
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A core-chain account row: the address, every other required column a zero value of its type. */
function accountRow(t: TestInstance, address: string): Record<string, unknown> {
  const row: Record<string, unknown> = { row_id: 1n, address };
  for (const c of t.app.catalog.table('account')!.columns) {
    if (c.name in row || c.nullable) continue;
    const type = c.type.name;
    row[c.name] =
      type === 'bool'
        ? false
        : type === 'datetime'
          ? new Date(0)
          : type.startsWith('enum(')
            ? type.slice(5, -1).split(',')[0]
            : type === 'string' || type === 'address' || type.startsWith('hash') || type === 'bytes'
              ? ''
              : 0;
  }
  return row;
}
