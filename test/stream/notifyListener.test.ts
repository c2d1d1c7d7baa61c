import { expect } from 'chai';
import { Client } from 'pg';
import { NotifyListener } from '../../framework/stream/NotifyListener';
import { StreamLog } from '../../framework/stream/StreamLog';
import { silentLogger } from '../../framework/util/Logger';
import { waitFor } from '../support/CrashRun';
import { BACKEND, createTestDatabase, TestDatabase } from '../support/TestDatabase';

/**
 * A replica's LISTEN connection whose backend is terminated, again and again, is reopened each time
 * (within the process: no unhandled `error` event) and hears the notifications sent after.
 */
describe(`stream NotifyListener: a terminated LISTEN connection (${BACKEND}; Postgres only)`, function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let admin: Client;
  let listener: NotifyListener;
  let wakes = 0;

  before(async function () {
    if (BACKEND !== 'postgres') this.skip();
    db = await createTestDatabase();
    admin = new Client({ connectionString: db.url });
    await admin.connect();
    listener = new NotifyListener(db.url!, () => wakes++, silentLogger);
    await listener.start();
  });
  after(async () => {
    await listener?.stop();
    await admin?.end();
    await db?.drop();
  });

  it('reconnects after each of three terminations, wakes the hub each time, hears later notifications', async () => {
    expect(listener.connections).to.equal(1);
    for (let drop = 1; drop <= 3; drop++) {
      const wakesBefore = wakes;
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );
      await waitFor(`reconnection ${drop}`, async () => (listener.connections === drop + 1 ? true : undefined), 20_000);
      // Told once listening again: what was committed meanwhile is read.
      expect(wakes).to.be.above(wakesBefore);
    }
    const received = listener.received;
    await admin.query('select pg_notify($1, $2)', [StreamLog.channel, '']);
    await waitFor('the notification', async () => (listener.received > received ? true : undefined), 20_000);
  });
});
