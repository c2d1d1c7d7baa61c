import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { getJson } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { taquitoHash8 } from './support/oracles';

/** Applied calls (signed and internal) to a contract in the raw blocks, by entrypoint. */
function appliedCalls(blocks: readonly Json[], address: string): Map<string, number> {
  const out = new Map<string, number>();
  const count = (op: Json, result: Json | undefined): void => {
    if (op.kind !== 'transaction' || op.destination !== address || result?.status !== 'applied') return;
    const entrypoint: string = op.parameters?.entrypoint ?? 'default';
    out.set(entrypoint, (out.get(entrypoint) ?? 0) + 1);
  };
  for (const b of blocks)
    for (const group of (b.operations ?? []).flat())
      for (const c of group.contents ?? []) {
        count(c, c.metadata?.operation_result);
        for (const i of c.metadata?.internal_operation_results ?? []) count(i, i.result);
      }
  return out;
}

describe(`core-chain: contracts whose origination was not indexed get the node's script (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'node-script', profile: 'tiny' });
  let t: TestInstance;
  let blocks: Json[];

  before(async function () {
    // 45 blocks: every bootstrap contract called has an applied call (a contract whose only calls
    // failed gets its script but no current storage: a known gap, out of this test's scope).
    chain.bakeTo(45);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain);
    blocks = Array.from(
      { length: chain.headLevel + 1 },
      (_, level) => JSON.parse(chain.blockJson(chain.at(level)!)) as Json,
    );
  });
  after(async () => t?.close());

  it('bootstrap contracts: script, storage, call_stats and code_hash as if their origination had been indexed', async function () {
    // Contracts that exist from genesis: no origination with a script in any block.
    const originated = new Set(
      blocks.flatMap((b) =>
        (b.operations ?? [])
          .flat()
          .flatMap((g: Json) => g.contents ?? [])
          .filter((c: Json) => c.kind === 'origination' && c.script)
          .flatMap((c: Json) => c.metadata?.operation_result?.originated_contracts ?? []),
      ),
    );
    const contents = blocks.flatMap((b) => (b.operations ?? []).flat().flatMap((g: Json) => g.contents ?? []));
    // Destinations of any kind (calls, increase_paid_storage…); calls only for those that got a transaction.
    const called = new Set(
      contents.map((c: Json) => c.destination as string).filter((a) => a?.startsWith('KT1') && !originated.has(a)),
    );
    const transacted = new Set(
      contents.filter((c: Json) => c.kind === 'transaction').map((c: Json) => c.destination as string),
    );
    expect(called.size, 'bootstrap contracts called').to.be.greaterThan(0);
    for (const address of called) {
      const res = await t.get(`/explorer/contract/${address}/script?prim=1`);
      expect(res.status, address).to.equal(200);
      const node = await new SandboxRpcTransport(chain).get(
        `/chains/main/blocks/head/context/contracts/${address}/script`,
      );
      expect(node.status, address).to.equal(200);
      const script = ((await res.json()) as Json).script;
      expect(script.code, address).to.deep.equal((JSON.parse(node.body) as Json).code);
      const storage = await new SandboxRpcTransport(chain).get(
        `/chains/main/blocks/head/context/contracts/${address}/storage`,
      );
      expect((await getJson(t, `/explorer/contract/${address}/storage?prim=1`)).prim, address).to.deep.equal(
        JSON.parse(storage.body),
      );
      const contract = await getJson(t, `/explorer/contract/${address}`);
      expect(contract.code_hash, address).to.equal(taquitoHash8(script.code));
      const expected = appliedCalls(blocks, address);
      for (const [entrypoint, n] of Object.entries(contract.call_stats as Record<string, number>))
        expect(n, `${address} ${entrypoint}`).to.equal(expected.get(entrypoint) ?? 0);
      const calls = await getJson<Json[]>(t, `/explorer/contract/${address}/calls?limit=500`);
      if (transacted.has(address)) expect(calls.length, `${address} calls`).to.be.greaterThan(0);
      for (const c of calls.filter((x) => x.is_success)) expect(c.code_hash, c.hash).to.equal(contract.code_hash);
    }
  });
});
