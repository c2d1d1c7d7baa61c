import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { ContractTypes } from '../../framework/michelson/ContractTypes';
import { entrypointArgType } from '../../framework/michelson/MichelsonTypes';
import { michelineOf } from '../../framework/michelson/PlainMicheline';
import { plainValue } from '../../framework/michelson/PlainValue';
import { fixturePath, readFixtureJson } from '../support/fixtures';

/*
 * Simulators write values through the real types (`michelineOf`, the decoder's inverse). The oracle is the chain:
 * every recorded mainnet call (pytezos' RPC recordings, `../shared/fixtures/defi/pytezos`) decoded with its
 * contract's served script and written back gives the node's own Micheline, byte for byte; so does every recorded
 * storage, which the node served in the optimized form (addresses as bytes, combs of four or more as sequences).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const pytezos = (dir: string, file: string): Json => readFixtureJson('defi', 'pytezos', dir, file);

describe('michelineOf: plain values back to the chain Micheline', function () {
  const dirs = readdirSync(fixturePath('defi', 'pytezos')).filter((d) =>
    readdirSync(fixturePath('defi', 'pytezos', d)).includes('__script__.json'),
  );

  for (const dir of dirs) {
    const types = ContractTypes.fromScript(pytezos(dir, '__script__.json'))!;
    const calls = readdirSync(fixturePath('defi', 'pytezos', dir)).filter((f) => !f.startsWith('__'));
    it(`${dir}: every recorded call's parameters (${calls.length})`, function () {
      expect(calls).to.not.be.empty;
      for (const file of calls) {
        const { entrypoint, value } = pytezos(dir, file).parameters;
        const type = entrypointArgType(types.parameterType, entrypoint);
        expect(michelineOf(type, plainValue(type, value)), `${dir}/${file}`).to.deep.equal(value);
      }
    });
  }

  // Dexter's recording (its calls of February 2021) is of a node before combs (Edo): it wrote every pair binary.
  for (const dir of dirs.filter((d) => !d.startsWith('dexter'))) {
    it(`${dir}: the served storage and every call's storage after, optimized as the node writes them`, function () {
      const script = pytezos(dir, '__script__.json');
      const types = ContractTypes.fromScript(script)!;
      const calls = readdirSync(fixturePath('defi', 'pytezos', dir)).filter((f) => !f.startsWith('__'));
      for (const value of [script.storage, ...calls.map((f) => pytezos(dir, f).storage)]) {
        const plain = plainValue(types.storageType, value);
        expect(michelineOf(types.storageType, plain, 'optimized'), dir).to.deep.equal(value);
      }
    });
  }

  it('writes addresses as text in the readable form, as bytes in the optimized one', function () {
    const storage = pytezos('dexter_tzbtc_xtz', '__script__.json').storage;
    const types = ContractTypes.fromScript(pytezos('dexter_tzbtc_xtz', '__script__.json'))!;
    const plain = plainValue(types.storageType, storage);
    expect(JSON.stringify(michelineOf(types.storageType, plain))).to.contain('"string":"KT1');
    expect(JSON.stringify(michelineOf(types.storageType, plain, 'optimized'))).to.not.contain('"string":"KT1');
  });

  it('refuses a value that does not fit the type', function () {
    const type = {
      prim: 'pair',
      args: [
        { prim: 'nat', annots: ['%a'] },
        { prim: 'string', annots: ['%b'] },
      ],
    };
    expect(michelineOf(type, { a: 1n, b: 'x' })).to.deep.equal({ prim: 'Pair', args: [{ int: '1' }, { string: 'x' }] });
    expect(() => michelineOf(type, { a: 1, b: 'x' })).to.throw(/does not fit nat/);
    expect(() => michelineOf(type, { a: 1n })).to.throw(/other fields/);
    expect(() => michelineOf({ prim: 'or', args: [type, { prim: 'unit' }] }, { c: null })).to.throw(/no variant c/);
  });
});
