import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import { abortableSleep } from '../../framework/chain';

// The indexer's retry pause and the RPC client's backoff share one long-lived signal: each pause must
// take its abort listener back when its time is up, or a node that keeps failing grows the list.
describe('abortableSleep', function () {
  it('resolves after its time and leaves no listener on the signal', async function () {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) await abortableSleep(2, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).to.have.length(0);
  });

  it("rejects with the signal's reason as soon as it aborts, before its time", async function () {
    const controller = new AbortController();
    // Ten minutes: were the abort ignored, the test would time out.
    const pause = abortableSleep(600_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 5);
    const reason = await pause.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(reason?.message).to.equal('stop');
    await abortableSleep(1, controller.signal).then(
      () => expect.fail('an aborted signal must reject'),
      (e: Error) => expect(e.message).to.equal('stop'),
    );
  });
});
