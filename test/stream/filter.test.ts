import { expect } from 'chai';
import { ApiError } from '../../framework/errors/ApiError';
import type { IndexContext } from '../../framework/indexer/IndexContext';
import { StreamFilter } from '../../framework/stream/StreamFilter';
import { StreamRecorder } from '../../framework/stream/StreamRecorder';

/** The stream's filter names are closed sets: a typo is a 400, not a silently empty stream. */
describe('live stream: filter names', () => {
  const opTypes = new Set(['transaction', 'delegation']);

  it('accepts the built-in event types and those a plugin declared, nothing else', () => {
    const recorder = new StreamRecorder('pglite', () => undefined);
    const parse = (types: string) => () => StreamFilter.parse({ types }, recorder.eventTypes, opTypes, 10);
    expect(parse('block,operation,rollback')).not.to.throw();
    expect(parse('block,dex_trade')).to.throw(ApiError, "invalid 'types' value 'dex_trade'");
    recorder.declare('dex_trade');
    expect(parse('block,dex_trade')).not.to.throw();
    expect(parse('dropped')).to.throw(ApiError, "'dropped'");
    const typo = { op_type: 'transaction,transacton' };
    expect(() => StreamFilter.parse(typo, recorder.eventTypes, opTypes, 10)).to.throw(
      ApiError,
      "invalid 'op_type' value 'transacton'",
    );
  });

  it('lets a plugin publish only what it declared, and never a reserved type', () => {
    const recorder = new StreamRecorder('pglite', () => undefined);
    const ctx = { read: {}, block: { level: 7 } } as unknown as IndexContext;
    expect(() => recorder.publish(ctx, 'dex_trade', {})).to.throw(/not declared/);
    for (const t of ['block', 'reset', 'dropped']) expect(() => recorder.declare(t)).to.throw(/reserved/);
    expect(() => recorder.declare('Dex Trade')).to.throw(/identifier/);
    recorder.declare('dex_trade');
    expect(() => recorder.publish(ctx, 'dex_trade', {})).not.to.throw();
    expect(() => recorder.publish(ctx, 'block', {})).to.throw(/not declared/);
  });
});
