import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Parser } from '@taquito/michel-codec';
import { plainValue } from '../../framework';
import type { NormalizedBlock, NormalizedOperation } from '../../framework/chain';
import { ContractDirectory } from '../../framework/indexer/watch/ContractDirectory';
import { WatchList } from '../../framework/indexer/watch/WatchList';
import { ContractTypes } from '../../framework/michelson/ContractTypes';
import { SandboxChain } from '../../framework/sandbox';
import { PROFILES } from '../../framework/sandbox/profiles';
import { ctezOvens } from '../../plugins/defi-lending/adapters/ctez/sim/sandbox';
import { CTEZ_1, CTEZ_2 } from '../../plugins/defi-lending/adapters/ctez/types';
import { canonical } from '../support/IndexHarness';
import { listFixtures, readFixtureJson } from '../support/fixtures';

/*
 * The ctez 2 types the lending adapter ships against the committed compiled build they come from
 * (test/fixtures/defi-lending/ctez, see its SOURCES.md): equal sections, the build's code hash listed; a
 * contract is read with them only when its calls and storage fit (no other family's recorded call does).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const BUILD = path.resolve('test/fixtures/defi-lending/ctez/ctez_2.tz');
const MAIN = 'KT1GWnsoFZVHGh7roXEER3qeCcgJgrXT3de2';
const noNode = async (): Promise<unknown> => undefined;
const directory = () => {
  const d = new ContractDirectory(new WatchList());
  d.known.add(CTEZ_1);
  d.known.add(CTEZ_2);
  return d;
};
const blockOf = (ops: object[]): NormalizedBlock => ({ level: 1, operations: ops }) as unknown as NormalizedBlock;

describe('defi-lending: the ctez types the adapter ships', () => {
  it('equal the committed build (trilitech/ctez build/ctez_2.tz) and list its code hash', () => {
    const code = JSON.parse(JSON.stringify(new Parser().parseScript(fs.readFileSync(BUILD, 'utf8'))));
    const real = ContractTypes.fromCode(code)!;
    const shipped = CTEZ_2.types;
    expect([shipped.parameterType, shipped.storageType]).to.deep.equal([real.parameterType, real.storageType]);
    expect(CTEZ_2.codeHashes).to.deep.equal([real.codeHash]);
    for (const e of CTEZ_2.signature) expect(shipped.entrypoints, e).to.include(e);
  });

  it("ctez 1's derived types have the source's entrypoints (tezos-checker/ctez ctez.mligo `parameter`)", () => {
    const source = ['cfmm_price', 'create', 'get_target', 'liquidate', 'mint_or_burn', 'register_deposit'];
    expect([...CTEZ_1.types.entrypoints].sort()).to.deep.equal([...source, 'set_addresses', 'withdraw']);
    for (const e of CTEZ_1.signature) expect(CTEZ_1.types.entrypoints, e).to.include(e);
  });

  it('neither version claims a recorded mainnet call of another family (pytezos recordings: DEX pools, Plenty farms)', async () => {
    const calls = listFixtures('defi', 'pytezos').filter((f) => !path.basename(f).startsWith('__'));
    expect(calls.length).to.be.greaterThan(20);
    for (const f of calls) {
      const c: Json = readFixtureJson(f);
      const { entrypoint, value: parameters } = c.parameters;
      const op = { type: 'transaction', status: 'applied', receiver: MAIN, entrypoint, parameters, storage: c.storage };
      expect(await directory().types(MAIN, blockOf([op]), noNode), f).to.equal(undefined);
    }
  });

  it("the sandbox ctez contract's oven calls fit the real parameter type, its storage and oven entries the real ones", () => {
    const chain = new SandboxChain({
      seed: 'lend-ctez',
      profile: { ...PROFILES.tiny, mix: { ...PROFILES.tiny.mix, defi: 30 } },
      traffic: ['defi-lending:ctez'],
    });
    chain.bakeTo(80);
    const main = ctezOvens(chain.contracts).address;
    // The account whose operation originated it (the sandbox's origination result says it, not the model).
    const ctezOriginator = canonical(chain)
      .flatMap((b) => b.operations)
      .find((o: NormalizedOperation) => o.originatedContracts.includes(main))?.sender;
    expect(ctezOriginator).to.be.a('string');
    const calls = canonical(chain)
      .flatMap((b) => b.operations)
      .filter((o: NormalizedOperation) => o.receiver === main && o.isSuccess && o.storage !== undefined);
    expect(calls.length).to.be.greaterThan(0);
    // The real `ovens` big map: the storage's first field.
    const ovens: Json = (CTEZ_2.types.storageType as Json).args[0];
    let entries = 0;
    for (const o of calls) {
      expect(CTEZ_2.types.parameters(o.entrypoint, o.parameters, { strict: true }), o.entrypoint).to.not.equal(
        undefined,
      );
      const storage = CTEZ_2.types.storage(o.storage, { strict: true }) as { ovens: number; originator: string };
      expect(storage.originator, o.entrypoint).to.equal(ctezOriginator);
      const id = storage.ovens;
      for (const d of o.bigMapDiffs) {
        if (d.action !== 'update' || Number(d.bigMapId) !== id) continue;
        expect(() => plainValue(ovens.args[0], d.key, { strict: true }), o.entrypoint).to.not.throw();
        expect(() => plainValue(ovens.args[1], d.value, { strict: true }), o.entrypoint).to.not.throw();
        entries++;
      }
    }
    expect(entries).to.be.at.least(calls.length);
  });
});
