import { expect } from 'chai';
import { bearer, firstError, GOOD_KEY, metadataInstance, PLUGINS, send } from '../metadata/support';
import { BACKEND } from '../support/TestDatabase';
import { replicaPair } from '../support/Replica';
import { TestInstance } from '../support/TestInstance';

const BAKER = 'tz1imALfjD83Lyjwq1qEwGcTpvdCi34RaxMq';

/**
 * Issue #51: a write on a `tzidx serve` replica, with a valid API key, is a 403 saying the instance
 * is read-only (it was a 500 "database error" from the read-only session). Every write route any
 * plugin mounts, not only metadata's.
 */
describe(`writes on a read-only tzidx serve replica (${BACKEND}; Postgres only: it shares a server)`, function () {
  this.timeout(120_000);
  const pair = replicaPair(() => metadataInstance({ writes: true, api_keys: [GOOD_KEY] }), PLUGINS);
  const onReplica = (method: string, path: string, body?: unknown) =>
    send({ url: pair().url } as TestInstance, method, path, body, bearer(GOOD_KEY));

  it('a metadata write with a valid key: 403/1214 on the replica, done on the indexer, readable on both', async () => {
    const entry = [{ address: BAKER, alias: { name: 'Replica Baker', kind: 'validator' } }];
    const refused = await onReplica('POST', '/metadata', entry);
    expect(refused.status).to.equal(403);
    expect(firstError(refused.json).code).to.equal(1214);
    expect(firstError(refused.json).detail).to.match(/read-only/);
    expect((await send(pair().indexer, 'POST', '/metadata', entry, bearer(GOOD_KEY))).status).to.equal(201);
    const read = await onReplica('GET', `/metadata/${BAKER}`);
    expect(read.status).to.equal(200);
    expect((read.json as { alias: { name: string } }).alias.name).to.equal('Replica Baker');
  });

  it('every write route of the instance answers 403/1214, and nothing it would have written is written', async () => {
    const reads = ['GET', 'HEAD', 'OPTIONS'];
    const writes = pair().replica.routes.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => !reads.includes(m)).map((m) => ({ method: m, path: String(layer.path) })),
    );
    expect(writes.length).to.be.at.least(5);
    for (const w of writes) {
      const path = w.path.replace(':ident', BAKER).replace(':hash', BAKER).replace(':id', '3');
      const body = w.method === 'DELETE' ? undefined : { alias: { name: 'x', kind: 'validator' } };
      const res = await onReplica(w.method, path, body);
      expect(res.status, `${w.method} ${path}`).to.equal(403);
      expect(firstError(res.json).code).to.equal(1214);
    }
    expect((await onReplica('GET', `/metadata/${BAKER}`)).status).to.equal(200);
  });

  it('reads, unknown paths and unknown methods keep their answers', async () => {
    expect((await onReplica('GET', '/tables/block?limit=1')).status).to.equal(200);
    expect((await onReplica('POST', '/no/such/route', {})).status).to.equal(404);
    expect((await onReplica('POST', '/tables/block', {})).status).to.equal(405);
  });
});
