import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import * as fs from 'node:fs';
import { ContractTypes, plainValue } from '../../framework';
import { fixturePath, readFixtureJson } from '../support/fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Plain values as JSON text for comparing with tzgo's expectations: bigint → decimal, Map → object. */
function asJson(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(asJson(k)), asJson(x)]));
  if (Array.isArray(v)) return v.map(asJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asJson(x)]));
  return v;
}

/** True when some part is still Micheline (a part that did not decode). */
function hasMicheline(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasMicheline);
  if (v instanceof Map) return [...v].some(([k, x]) => hasMicheline(k) || hasMicheline(x));
  if (v === null || typeof v !== 'object' || v instanceof Date) return false;
  const keys = Object.keys(v);
  if (keys.includes('prim') || (keys.length === 1 && ['int', 'string', 'bytes'].includes(keys[0]))) return true;
  return Object.values(v).some(hasMicheline);
}

const TZGO = [
  'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW-516',
  'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW-518',
  'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV-381',
  'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV-382',
];

describe('michelson: plain values for handlers', () => {
  describe('big map entries equal tzgo’s expected decoding (bytes read as text)', () => {
    for (const file of TZGO) {
      for (const e of readFixtureJson<Json[]>('metadata', 'tzgo', `${file}.json`)) {
        it(e.name, () => {
          const [keyType, valueType] = e.type.args;
          expect(asJson(plainValue(keyType, e.key, { bytes: 'text' }))).to.deep.equal(e.want_key);
          expect(asJson(plainValue(valueType, e.value, { bytes: 'text' }))).to.deep.equal(e.want_value);
        });
      }
    }
  });

  it('keeps bytes as hex unless asked for text', () => {
    const [e] = readFixtureJson<Json[]>('metadata', 'tzgo', 'KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW-516.json');
    expect(plainValue(e.type.args[1], e.value)).to.equal(e.value.bytes);
  });

  it('keeps a part that does not fit its type as Micheline, or throws when strict', () => {
    const bigMap = { prim: 'big_map', annots: ['%b'], args: [{ prim: 'nat' }, { prim: 'nat' }] };
    const type = { prim: 'pair', args: [{ prim: 'nat', annots: ['%a'] }, bigMap] };
    const misfit = { prim: 'Pair', args: [{ int: '7' }, { prim: 'Pair', args: [{ int: '1' }, { int: '2' }] }] };
    expect(plainValue(type, misfit)).to.deep.equal({ a: 7n, b: misfit.args[1] });
    expect(() => plainValue(type, misfit, { strict: true })).to.throw();
    const fit = { prim: 'Pair', args: [{ int: '7' }, { int: '12' }] };
    expect(plainValue(type, fit, { strict: true })).to.deep.equal({ a: 7n, b: 12 });
  });

  describe('recorded mainnet calls (pytezos fixtures)', () => {
    const call = (dir: string, name: string): Json => readFixtureJson<Json>('defi', 'pytezos', dir, `${name}.json`);
    const types = (dir: string): ContractTypes =>
      ContractTypes.fromScript(readFixtureJson('defi', 'pytezos', dir, '__script__.json'))!;

    it('Dexter tokenToXtz: type-annotated record, mutez and timestamp; storage with its big map id', () => {
      const { parameters, storage } = call('dexter_tzbtc_xtz', 'tokenToXtz');
      const v = parameters.value;
      const t = types('dexter_tzbtc_xtz');
      expect(t.parameters(parameters.entrypoint, v)).to.deep.equal({
        owner: v.args[0].args[0].string,
        to: v.args[0].args[1].string,
        tokensSold: BigInt(v.args[1].args[0].int),
        minXtzBought: BigInt(v.args[1].args[1].args[0].int),
        deadline: new Date(v.args[1].args[1].args[1].string),
      });
      const [accounts, rest] = storage.args;
      const [[selfUpdating, [freeze, lqt]], [[manager, token], [tokenPool, xtzPool]]] = [
        [rest.args[0].args[0], rest.args[0].args[1].args],
        [rest.args[1].args[0].args, rest.args[1].args[1].args],
      ];
      expect(t.storage(storage)).to.deep.equal({
        accounts: Number(accounts.int),
        selfIsUpdatingTokenPool: selfUpdating.prim === 'True',
        freezeBaker: freeze.prim === 'True',
        lqtTotal: BigInt(lqt.int),
        manager: encodeAddress(manager.bytes),
        tokenAddress: encodeAddress(token.bytes),
        tokenPool: BigInt(tokenPool.int),
        xtzPool: BigInt(xtzPool.int),
      });
    });

    it('Plenty volatile Swap: field-annotated comb; storage in the node’s optimized sequence form', () => {
      const { parameters, storage } = call('weth_e_ctez_plenty_volatile_swap', 'Swap');
      const v = parameters.value;
      const t = types('weth_e_ctez_plenty_volatile_swap');
      expect(t.parameters('Swap', v)).to.deep.equal({
        MinimumTokenOut: BigInt(v.args[0].args[0].int),
        recipient: v.args[0].args[1].string,
        requiredTokenAddress: v.args[1].args[0].string,
        requiredTokenId: BigInt(v.args[1].args[1].args[0].int),
        tokenAmountIn: BigInt(v.args[1].args[1].args[1].int),
      });
      const s = t.storage(storage) as Json;
      const first = storage[0][0];
      expect([s.admin, s.lpFee]).to.deep.equal([
        encodeAddress(first.args[0].args[0].bytes),
        BigInt(first.args[0].args[1].int),
      ]);
      expect(s.voterContract).to.equal(null);
      expect(s.totalSupply).to.equal(BigInt(storage[storage.length - 2].int));
      expect(hasMicheline(s)).to.equal(false);
    });

    it('QuipuSwap StableSwap add_pool: set of or-variants, map of records, empty set', () => {
      const { parameters } = call('quipuswap_stableswap_amm_factory', 'add_pool');
      const type = readFixtureJson<Json>('defi', 'pytezos', 'quipuswap_stableswap_amm_factory', '__entrypoints__.json')
        .entrypoints.add_pool;
      const v = parameters.value;
      // Pair a_constant (Pair tokens (Pair info (Pair referral (Pair managers fees)))), read by hand.
      const tokens = v.args[1].args[0];
      const info = v.args[1].args[1].args[0];
      const referral = v.args[1].args[1].args[1].args[0];
      const [managers, fees] = v.args[1].args[1].args[1].args[1].args;
      const variant = (x: Json): unknown =>
        x.prim === 'Left'
          ? { fa12: x.args[0].string }
          : { fa2: { token_address: x.args[0].args[0].string, token_id: BigInt(x.args[0].args[1].int) } };
      expect(plainValue(type, v)).to.deep.equal({
        a_constant: BigInt(v.args[0].int),
        input_tokens: tokens.map(variant),
        tokens_info: new Map(
          info.map((e: Json) => [
            BigInt(e.args[0].int),
            { rate_f: BigInt(e.args[1].args[0].int), precision_multiplier_f: BigInt(e.args[1].args[1].int) },
          ]),
        ),
        default_referral: referral.string,
        managers: [],
        fees: {
          lp_f: BigInt(fees.args[0].int),
          stakers_f: BigInt(fees.args[1].args[0].int),
          ref_f: BigInt(fees.args[1].args[1].int),
        },
      });
      expect(managers).to.deep.equal([]);
    });

    it('every recorded call decodes fully against its entrypoint type (no Micheline left but code)', () => {
      let checked = 0;
      for (const dir of fs.readdirSync(fixturePath('defi', 'pytezos'))) {
        const entrypoints = readFixtureJson<Json>('defi', 'pytezos', dir, '__entrypoints__.json').entrypoints;
        for (const f of fs.readdirSync(fixturePath('defi', 'pytezos', dir)).filter((n) => !n.startsWith('__'))) {
          const { parameters } = call(dir, f.replace(/\.json$/, ''));
          const type = entrypoints[parameters.entrypoint];
          expect(type, `${dir}/${f}`).to.not.equal(undefined);
          if (/"(lambda|ticket|operation)"/.test(JSON.stringify(type))) continue;
          expect(hasMicheline(plainValue(type, parameters.value)), `${dir}/${f}`).to.equal(false);
          checked++;
        }
      }
      expect(checked).to.be.greaterThan(25);
    });
  });
});
