import { expect } from 'chai';
import { databaseErrorToApi, isConnectionLoss, isDatabaseError } from '../../framework/storage/DatabaseErrors';

/** A pg-style error: a message and, for the server's errors, a SQLSTATE. */
const pgError = (message: string, code?: string): Error => Object.assign(new Error(message), code ? { code } : {});

describe('database errors as API errors', () => {
  it('a lost connection, in any of the forms pg, knex and the socket report it, is a 503', () => {
    const lost = [
      pgError('select … - terminating connection due to administrator command', '57P01'),
      pgError('the database system is starting up', '57P03'),
      pgError('connection failure', '08006'),
      pgError('Connection terminated unexpectedly'),
      pgError('Client has encountered a connection error and is not queryable'),
      pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      pgError('write EPIPE', 'EPIPE'),
      pgError('Knex: Timeout acquiring a connection. The pool is probably full.'),
      new Error('batch failed', { cause: pgError('Connection terminated unexpectedly') }),
    ];
    for (const e of lost) {
      expect(isConnectionLoss(e), e.message).to.equal(true);
      expect(isDatabaseError(e), e.message).to.equal(true);
      const api = databaseErrorToApi(e);
      expect(api.status, e.message).to.equal(503);
      expect(api.detail).to.not.match(/select|ECONNREFUSED|127\.0\.0\.1/);
    }
  });

  it('other failures keep their answers: read-only 403, timeout 503, no table 404, bad value 400, else 500', () => {
    const readOnly = pgError('cannot execute INSERT in a read-only transaction', '25006');
    expect(databaseErrorToApi(readOnly)).to.include({ status: 403, code: 1214 });
    expect(databaseErrorToApi(pgError('canceling statement due to statement timeout', '57014')).status).to.equal(503);
    expect(databaseErrorToApi(pgError('relation does not exist', '42P01')).status).to.equal(404);
    expect(databaseErrorToApi(pgError('invalid regular expression', '2201B')).status).to.equal(400);
    expect(databaseErrorToApi(pgError('duplicate key', '23505')).status).to.equal(500);
    expect(isConnectionLoss(pgError('duplicate key', '23505'))).to.equal(false);
    expect(isDatabaseError(new TypeError('x is undefined'))).to.equal(false);
  });
});
