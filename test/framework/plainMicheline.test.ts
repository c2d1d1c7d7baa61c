import { expect } from 'chai';
import * as fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { ContractTypes, entrypointTypes, plainValue } from '../../framework';
import { plainMicheline } from '../../framework/michelson/PlainMicheline';
import { fixturePath, readFixtureJson } from '../support/fixtures';

/*
 * plainMicheline writes a plain value back as Micheline of its type (what simulators build their storages and
 * parameters with). Oracle: the real mainnet storages and parameters pytezos recorded
 * (../shared/fixtures/defi/pytezos, each with its contract's script): decoded, written back and decoded again,
 * every one is the same value.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('framework: plainMicheline, the decoder inverse', () => {
  const withScript = (dir: string) => fs.existsSync(fixturePath('defi', 'pytezos', dir, '__script__.json'));
  const recordings = fs
    .readdirSync(fixturePath('defi', 'pytezos'))
    .filter(withScript)
    .flatMap((dir) => {
      const types = ContractTypes.fromScript(readFixtureJson('defi', 'pytezos', dir, '__script__.json'))!;
      return fs
        .readdirSync(fixturePath('defi', 'pytezos', dir))
        .filter((n) => !n.startsWith('__'))
        .map((f) => ({ name: `${dir}/${f}`, types, call: readFixtureJson<Json>('defi', 'pytezos', dir, f) }));
    });

  it('gives back every recorded storage: decoded again it is the same value', () => {
    expect(recordings.length).to.be.greaterThan(20);
    for (const { name, types, call } of recordings) {
      const plain = plainValue(types.storageType, call.storage, { strict: true });
      const again = plainValue(types.storageType, plainMicheline(types.storageType, plain), { strict: true });
      expect(isDeepStrictEqual(again, plain), name).to.equal(true);
    }
  });

  it("gives back every recorded call's argument under its entrypoint's type", () => {
    for (const { name, types, call } of recordings) {
      const type = entrypointTypes(types.parameterType).get(call.parameters.entrypoint);
      const plain = plainValue(type, call.parameters.value, { strict: true });
      expect(isDeepStrictEqual(plainValue(type, plainMicheline(type, plain), { strict: true }), plain), name).to.equal(
        true,
      );
    }
  });

  it('refuses a value that does not fit: a missing field, an unknown variant, a number for a nat', () => {
    const record = {
      prim: 'pair',
      args: [
        { prim: 'nat', annots: ['%a'] },
        { prim: 'nat', annots: ['%b'] },
      ],
    };
    const union = {
      prim: 'or',
      args: [
        { prim: 'unit', annots: ['%x'] },
        { prim: 'nat', annots: ['%y'] },
      ],
    };
    expect(plainMicheline(record, { a: 1n, b: 2n })).to.deep.equal({
      prim: 'Pair',
      args: [{ int: '1' }, { int: '2' }],
    });
    expect(plainMicheline(union, { y: 3n })).to.deep.equal({ prim: 'Right', args: [{ int: '3' }] });
    expect(() => plainMicheline(record, { a: 1n })).to.throw('no field b');
    expect(() => plainMicheline(union, { z: null })).to.throw('no variant z');
    expect(() => plainMicheline(record, { a: 1, b: 2n })).to.throw('is no nat');
  });
});
