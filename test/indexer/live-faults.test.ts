import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { startSandboxServer } from '../../framework/sandbox';
import { FAULT_KINDS } from '../support/FaultSchedule';
import { startFaultyProxy } from '../support/FaultyProxy';
import { indexSandbox } from '../support/IndexHarness';
import { indexWhileMoving } from '../support/LiveChain';
import { expectSameTables } from '../support/TableSnapshot';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

const plugins = [...discoverPlugins([BUILTIN_PLUGIN_DIR]), ProbePlugin as unknown as PluginClass];

// Short limits so an unanswered request or a silent head stream costs a second at most, not 30 s or 2 min;
// the client's default 5 retries.
const SOURCE_OPTIONS = {
  timeoutMs: 500,
  headersTimeoutMs: 500,
  monitorIdleTimeoutMs: 1_000,
  backoff: { baseMs: 10, maxMs: 80 },
  reconnectBackoff: { baseMs: 10, maxMs: 80 },
};

describe(`live indexing over HTTP through RPC faults (${BACKEND})`, function () {
  this.timeout(300_000);

  it('indexes live through 10% injected faults (500, timeout, reset, truncated body); tables equal a fault-free run', async function () {
    const server = await startSandboxServer({
      port: 0,
      seed: 'live-faults',
      profile: 'tiny',
      historyBlocks: 30,
      blockIntervalMs: 0,
    });
    const proxy = await startFaultyProxy({ target: server.url, seed: 18, rate: 0.1, streamRate: 0.3 });
    const live = await startTestInstance({ plugins });
    const fresh = await startTestInstance({ plugins });
    try {
      // The client logs one warning per retry (with the failure's kind), the source one per head-stream reconnect.
      const retried: string[] = [];
      const logger = { warn: (obj: object) => void ('errorKind' in obj && retried.push(String(obj.errorKind))) };
      const reorgs = await indexWhileMoving(
        live,
        server.chain,
        new RpcBlockSource(proxy.url, { ...SOURCE_OPTIONS, logger }),
        18,
        20,
      );
      expect(reorgs).to.be.greaterThan(2);
      for (const kind of FAULT_KINDS) {
        expect(proxy.faults[kind], `${kind} faults among ${proxy.requests} requests`).to.be.greaterThan(0);
        expect(proxy.streamFaults[kind], `${kind} faults of the head stream`).to.be.greaterThan(0);
      }
      const injected = Object.values(proxy.faults).reduce((a, b) => a + b);
      expect(injected / proxy.requests, 'share of faulted requests').to.be.within(0.05, 0.15);
      // Every fault reached the client as a failed attempt (a slow answer under load may add a timeout),
      // typed: a 500, a timeout, a reset or a body cut under its Content-Length, JSON cut short.
      expect(retried.length, retried.join(' ')).to.be.at.least(injected);
      expect(new Set(retried)).to.deep.equal(new Set(['http', 'timeout', 'network', 'invalid_json']));

      await indexSandbox(fresh, server.chain);
      await expectSameTables(live, fresh);
    } finally {
      await proxy.close();
      await live.close();
      await fresh.close();
      await server.close();
    }
  });
});
