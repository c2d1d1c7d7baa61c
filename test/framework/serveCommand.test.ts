import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { expect } from 'chai';
import { BACKEND, createTestDatabase, TestDatabase } from '../support/TestDatabase';

const BIN = path.resolve(__dirname, '..', '..', 'framework', 'cli', 'tzidx.js');

/**
 * `tzidx serve` on Postgres whose port is taken ends with the error: its pools and the stream's LISTEN
 * connection are closed, instead of keeping the process alive with no API.
 */
describe(`tzidx serve on a port in use (${BACKEND}; Postgres only: nothing kept a PGlite one alive)`, function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let taken: net.Server;

  before(async function () {
    if (BACKEND !== 'postgres') this.skip();
    db = await createTestDatabase();
    taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    taken?.close();
    await db?.drop();
  });

  it('exits with status 1 and says why', async () => {
    const port = (taken.address() as net.AddressInfo).port;
    const args = [BIN, 'serve', '--port', String(port), '--plugins', 'core-chain', '--log-level', 'silent'];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    // Mocha's timeout fails a process that lingers.
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).to.equal(1);
    expect(err).to.match(/EADDRINUSE/);
  });
});
