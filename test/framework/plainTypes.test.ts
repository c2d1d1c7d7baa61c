import { expect } from 'chai';
import { Parser } from '@taquito/michel-codec';
import { conforms, plainTsType, TypedValue } from '../../framework/michelson/PlainTypes';
import { plainValue } from '../../framework/michelson/PlainValue';

/*
 * The TypeScript type `npm run gen` writes for a Michelson type names what the decoder (`plainValue`) gives for
 * its values, and the check (`conforms`) takes the decoder's values and refuses any other: each case is a type,
 * a value of it, the type text expected and the decoder's value (what the Tezos docs say each form is).
 */
const parse = (text: string): unknown => JSON.parse(JSON.stringify(new Parser().parseMichelineExpression(text)));

const CASES: Array<[string, string, string, unknown]> = [
  ['nat', '7', 'bigint', 7n],
  ['(mutez %fee)', '0', 'bigint', 0n],
  ['address', '"tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"', 'string', 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx'],
  ['(option nat)', 'None', 'bigint | null', null],
  ['(option nat)', '(Some 3)', 'bigint | null', 3n],
  ['(pair (nat %a) (string %b))', '(Pair 1 "x")', '{ a: bigint; b: string; }', { a: 1n, b: 'x' }],
  ['(pair nat string)', '(Pair 1 "x")', "{ '0': bigint; '1': string; }", { 0: 1n, 1: 'x' }],
  ['(or (nat %l) (unit %r))', '(Right Unit)', '{ l: bigint } | { r: null }', { r: null }],
  ['(or nat (or string bool))', '(Right (Left "s"))', '{ L: bigint } | { RL: string } | { RR: boolean }', { RL: 's' }],
  ['(list nat)', '{ 1 ; 2 }', 'Array<bigint>', [1n, 2n]],
  ['(map string nat)', '{ Elt "a" 1 }', 'Map<string, bigint>', new Map([['a', 1n]])],
  ['(big_map string nat)', '42', 'BigMap<string, bigint>', 42],
  ['(big_map string nat)', '{ Elt "a" 1 }', 'BigMap<string, bigint>', new Map([['a', 1n]])],
  ['timestamp', '0', 'Date | string', new Date(0)],
  ['timestamp', '"1970-01-01T00:00:01Z"', 'Date | string', new Date(1000)],
  // A mainnet DexCore swap gave its deadline so (Temple recording wtz-arbitraging): the node took it.
  ['timestamp', '"1702183425"', 'Date | string', '1702183425'],
  ['unit', 'Unit', 'null', null],
  ['(lambda unit unit)', '{}', 'unknown', []],
];

describe('plain types: the decoder values a Michelson type has, named and checked', () => {
  for (const [type, value, text, plain] of CASES) {
    it(`${type} ${value}: ${text}`, () => {
      const [t, v] = [parse(type), parse(value)];
      expect(plainTsType(t)).to.equal(text);
      expect(plainValue(t, v)).to.deep.equal(plain);
      expect(conforms(t, plainValue(t, v))).to.equal(true);
    });
  }

  it('refuses a value the decoder left Micheline, a missing or extra field, an unknown variant', () => {
    const record = parse('(pair (nat %a) (option %b timestamp))');
    const typed = new TypedValue<{ a: bigint; b: Date | string | null }>(record);
    expect(typed.decode(parse('(Pair 1 None)'))).to.deep.equal({ a: 1n, b: null });
    // "x" is no nat: the decoder keeps it as Micheline, and the check refuses the whole value.
    expect(typed.decode(parse('(Pair "x" None)'))).to.equal(undefined);
    expect(typed.read({ a: 1n })).to.equal(undefined);
    expect(typed.read({ a: 1n, b: null, c: 2n })).to.equal(undefined);
    expect(typed.read({ a: 1, b: null })).to.equal(undefined);
    expect(typed.read({ a: 1n, b: 0 })).to.equal(undefined);
    const union = parse('(or (nat %l) (unit %r))');
    expect(conforms(union, { m: null })).to.equal(false);
    expect(conforms(union, { l: 1n, r: null })).to.equal(false);
  });
});
