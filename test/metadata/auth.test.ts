import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { TestInstance } from '../support/TestInstance';
import { bearer, firstError, GOOD_KEY, metadataInstance, send } from './support';

const BAKER = 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq';
const ENTRY = { address: BAKER, alias: { name: 'Auth Baker', kind: 'validator' } };

/** Every write route with a body that is valid for it. */
const WRITES: Array<{ method: string; path: string; body?: unknown; ok: number }> = [
  { method: 'POST', path: '/metadata', body: [ENTRY], ok: 201 },
  { method: 'PUT', path: `/metadata/${BAKER}`, body: { alias: { name: 'Renamed', kind: 'validator' } }, ok: 200 },
  { method: 'PUT', path: `/metadata/${BAKER}/3`, body: { alias: { name: 'Token 3', kind: 'token' } }, ok: 200 },
  { method: 'DELETE', path: `/metadata/${BAKER}/3`, ok: 204 },
  { method: 'DELETE', path: `/metadata/${BAKER}`, ok: 204 },
  { method: 'DELETE', path: '/metadata', ok: 204 },
];

const KEYS: Record<string, Record<string, string>> = {
  'no key': {},
  'a bad key': bearer('wrong-key'),
  'the good key (Bearer)': bearer(GOOD_KEY),
  'the good key (X-API-Key)': { 'x-api-key': GOOD_KEY },
};

describe('metadata: write access (public/private × key × route)', () => {
  let pub: TestInstance;
  let priv: TestInstance;
  before(async () => {
    pub = await metadataInstance();
    // The config holds the key's digest only.
    priv = await metadataInstance({
      writes: true,
      api_keys: [`sha256:${createHash('sha256').update(GOOD_KEY).digest('hex')}`],
    });
  });
  after(async () => {
    await pub?.close();
    await priv?.close();
  });

  for (const [keyName, headers] of Object.entries(KEYS)) {
    it(`public instance, ${keyName}: every write route is 403/1214`, async () => {
      for (const w of WRITES) {
        const r = await send(pub, w.method, w.path, w.body, headers);
        expect(r.status, `${w.method} ${w.path}`).to.equal(403);
        expect(firstError(r.json).code).to.equal(1214);
      }
    });
  }

  it('private instance, no key: 401/1201 on every write route', async () => {
    for (const w of WRITES) {
      const r = await send(priv, w.method, w.path, w.body, {});
      expect(r.status, `${w.method} ${w.path}`).to.equal(401);
      expect(firstError(r.json).code).to.equal(1201);
    }
  });

  it('private instance, bad key: 401/1202 on every write route, and the key is not echoed', async () => {
    for (const w of WRITES) {
      const r = await send(priv, w.method, w.path, w.body, bearer('wrong-key'));
      expect(r.status, `${w.method} ${w.path}`).to.equal(401);
      expect(firstError(r.json).code).to.equal(1202);
      expect(JSON.stringify(r.json)).not.to.contain('wrong-key');
    }
  });

  for (const keyName of ['the good key (Bearer)', 'the good key (X-API-Key)']) {
    it(`private instance, ${keyName}: every write route succeeds in sequence`, async () => {
      for (const w of WRITES) {
        const r = await send(priv, w.method, w.path, w.body, KEYS[keyName]);
        expect(r.status, `${w.method} ${w.path}: ${JSON.stringify(r.json)}`).to.equal(w.ok);
      }
    });
  }

  it('reads need no key on either instance', async () => {
    for (const t of [pub, priv]) {
      expect((await send(t, 'GET', '/metadata/schemas')).status).to.equal(200);
      expect((await send(t, 'GET', '/metadata')).status).to.equal(200);
    }
  });
});
