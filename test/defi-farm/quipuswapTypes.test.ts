import { expect } from 'chai';
import * as path from 'node:path';
import type { KnownCode, NormalizedBlock, NormalizedOperation } from '../../framework';
import { ContractDirectory } from '../../framework/indexer/watch/ContractDirectory';
import { WatchList } from '../../framework/indexer/watch/WatchList';
import { SandboxChain } from '../../framework/sandbox';
import { quipuswapFarm } from '../../plugins/defi-farm/adapters/quipuswap/sim/sandbox';
import { QUIPU_QFARM, QUIPU_TFARM } from '../../plugins/defi-farm/adapters/quipuswap/types';
import { readBigMapEntries } from '../support/bigMapEntries';
import { canonical } from '../support/IndexHarness';
import { listFixtures, readFixtureJson } from '../support/fixtures';

/*
 * The QuipuSwap farms types the farm adapter ships (derived from the LIGO source, `types.ts`): a contract is
 * read with a version only when its calls and storage fit it, and no other family's recorded mainnet call does.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const FARM = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const noNode = async (): Promise<unknown> => undefined;
const directory = (codes: readonly KnownCode[]) => {
  const d = new ContractDirectory(new WatchList());
  for (const c of codes) d.known.add(c);
  return d;
};
const blockOf = (ops: object[]): NormalizedBlock => ({ level: 1, operations: ops }) as unknown as NormalizedBlock;

describe('defi-farm: the QuipuSwap farms types the adapter ships', () => {
  it('each version has the entrypoints that tell it', () => {
    for (const c of [QUIPU_QFARM, QUIPU_TFARM])
      expect(c.types.entrypoints, c.name).to.include.members([...c.signature]);
  });

  it('claim no recorded mainnet call of another family (pytezos recordings: DEX pools, Plenty farms)', async () => {
    const calls = listFixtures('defi', 'pytezos').filter((f) => !path.basename(f).startsWith('__'));
    expect(calls.length).to.be.greaterThan(20);
    for (const f of calls) {
      const c: Json = readFixtureJson(f);
      const { entrypoint, value: parameters } = c.parameters;
      const op = { type: 'transaction', status: 'applied', receiver: FARM, entrypoint, parameters, storage: c.storage };
      expect(await directory([QUIPU_QFARM, QUIPU_TFARM]).types(FARM, blockOf([op]), noNode), f).to.equal(undefined);
    }
  });

  it("the sandbox farms contract: its calls, storages and big map entries fit TFarm's types, not QFarm's", () => {
    const chain = new SandboxChain({ seed: 'farm-quipuswap', profile: 'tiny', traffic: ['defi-farm:quipuswap'] });
    chain.bakeTo(60);
    const farm = quipuswapFarm(chain.contracts).address;
    const calls = canonical(chain)
      .flatMap((b) => b.operations)
      .filter((o: NormalizedOperation) => o.receiver === farm && o.isSuccess && o.storage !== undefined);
    expect(calls.length).to.be.greaterThan(0);
    let entries = 0;
    for (const o of calls) {
      entries += readBigMapEntries(QUIPU_TFARM.types, o.storage, o.bigMapDiffs);
      expect(QUIPU_TFARM.types.parameters(o.entrypoint, o.parameters, { strict: true }), o.entrypoint).to.not.equal(
        undefined,
      );
      expect(() => QUIPU_QFARM.types.storage(o.storage, { strict: true }), o.entrypoint).to.throw();
    }
    // The farms and users_info entries every call writes.
    expect(entries).to.be.greaterThan(2 * calls.length - 1);
  });
});
